import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

/**
 * The project folder (the one holding package.json), found from this module's location so it is the same
 * whether the server runs from its TypeScript sources or from the compiled bundle in dist/.
 */
export function projectRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('package.json not found above the server files');
    dir = up;
  }
  root = dir;
  return root;
}

/** A path inside the project folder. */
export const fromRoot = (...parts: string[]): string => path.join(projectRoot(), ...parts);

/** True under tsx or vitest (TypeScript sources), false in the compiled bundle under dist/server. */
export const runningFromSources = (): boolean => fileURLToPath(import.meta.url).endsWith('.ts');

/** A file of the server: its TypeScript source, or the compiled file of the same name in dist/server. */
export const serverEntry = (sourcePath: string): string =>
  runningFromSources() ? fromRoot(sourcePath) : fromRoot('dist', 'server', `${path.basename(sourcePath, '.ts')}.js`);

/**
 * Makes `dir` (and any missing parent) and sets it to 0700 whatever the umask: uploads, imports and
 * skipped lists hold contact lists and media that only this server's user may read.
 */
export function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/** Sets a file this server wrote to 0600 (a file's mode at creation is cut by the umask, never widened back). */
export function privateFile(file: string): void {
  fs.chmodSync(file, 0o600);
}
