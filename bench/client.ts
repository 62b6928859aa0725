/**
 * `npm run bench:client [--no-build]`: the JavaScript each console route downloads, in gzip bytes.
 * Read from Vite's manifest (dist/client/.vite/manifest.json): the entry's static imports plus, for a
 * route, its page module's (and for protected routes the layout's) static imports, each chunk counted
 * once. Code a page loads later by itself (a chart, the editor) is listed apart as "later".
 * Budgets (issue 13): /signin at most 200 KB, a list screen at most 350 KB; exits 1 above them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { closure, readManifest, routeModules } from './lib/client-routes';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist/client');
const manifestPath = path.join(dist, '.vite/manifest.json');

if (!process.argv.includes('--no-build') || !fs.existsSync(manifestPath)) {
  const res = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

const manifest = readManifest(dist);
const gz = new Map<string, number>();
const gzipBytes = (file: string): number => {
  let n = gz.get(file);
  if (n === undefined) {
    n = gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
    gz.set(file, n);
  }
  return n;
};

const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
/** The chunks that hold the route tables: their dynamic imports are the other screens, not this one's later code. */
const routeTables = new Set([entryKey, 'src/App.tsx']);
const entry = closure(manifest, [entryKey]);
const sum = (keys: Iterable<string>) => [...keys].reduce((n, k) => n + gzipBytes(manifest[k]!.file), 0);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

console.log(`entry (every route): ${kb(sum(entry))} gzip in ${entry.size} chunks`);
console.log(`${'route'.padEnd(22)} ${'gzip JS'.padStart(10)} ${'later'.padStart(10)}`);
let over = 0;
for (const { route, modules } of routeModules(root, manifest)) {
  const keys = closure(manifest, modules, new Set(entry));
  const later = new Set<string>();
  for (const k of keys) for (const d of manifest[k]!.dynamicImports ?? []) if (!keys.has(d) && !routeTables.has(k)) closure(manifest, [d], later);
  for (const k of keys) later.delete(k);
  const total = sum(keys);
  const budget = route === '/signin' ? 200 * 1024 : 350 * 1024;
  const mark = total > budget ? `  over the ${kb(budget)} budget` : '';
  if (mark) over += 1;
  console.log(`${route.padEnd(22)} ${kb(total).padStart(10)} ${(later.size ? kb(sum(later)) : '-').padStart(10)}${mark}`);
}
const all = Object.values(manifest).filter((c) => c.file.endsWith('.js'));
console.log(`all JS: ${kb(all.reduce((n, c) => n + gzipBytes(c.file), 0))} gzip in ${all.length} chunks`);
process.exit(over ? 1 : 0);
