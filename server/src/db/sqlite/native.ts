import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { embeddedBytes, embeddedManifest, isEmbedded } from '../../lib/embedded';

/**
 * better-sqlite3's compiled addon. Run from the project, the package finds its own build. The single
 * executable carries the addon as an asset; a shared object can only be loaded from a file, so it is written
 * once to a private folder under a name holding its sha256 and loaded from there through better-sqlite3's
 * `nativeBinding` option. A file there that is not exactly that addon (damaged, left by another build, put
 * there by someone else) is replaced, never loaded.
 */
export const ADDON_ASSET = 'better_sqlite3.node';

/** `$XDG_CACHE_HOME/blast-console` when the variable is set, else `DATA_DIR/native`. */
export function addonFolder(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME?.trim();
  if (cache) return path.join(path.resolve(cache), 'blast-console');
  return path.join(path.resolve(env.DATA_DIR || './data'), 'native');
}

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/** The folder, created 0700; one that is a link or belongs to another user is refused (it could be swapped). */
function privateFolder(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) {
    throw new Error(`${dir} must be a folder of this user (uid ${uid}) for the SQLite addon`);
  }
  fs.chmodSync(dir, 0o700);
}

/** True when `file` is a plain file of this user holding exactly the bytes whose hash is `hash`. */
function holds(file: string, hash: string): boolean {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return false;
  }
  const uid = process.getuid?.();
  if (!st.isFile() || (uid !== undefined && st.uid !== uid)) return false;
  return sha256(fs.readFileSync(file)) === hash;
}

/**
 * Writes `bytes` to `dir` as `better_sqlite3-<hash>.node` unless the right file is there already, and returns
 * its path. A wrong file is replaced by an atomic rename of a fresh copy, so a reader never sees half a file.
 */
export function placeAddon(dir: string, bytes: Uint8Array, hash: string): string {
  if (sha256(bytes) !== hash) throw new Error('The embedded SQLite addon does not match its recorded hash');
  privateFolder(dir);
  const file = path.join(dir, `better_sqlite3-${hash.slice(0, 32)}.node`);
  if (holds(file, hash)) return file;
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`);
  const fd = fs.openSync(tmp, 'wx', 0o500);
  try {
    fs.writeSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.rmSync(file, { force: true, recursive: true });
  fs.renameSync(tmp, file);
  if (!holds(file, hash)) throw new Error(`Could not write the SQLite addon to ${file}`);
  return file;
}

let addon: object | null = null;

/** The options every connection opens with (the embedded addon inside the single executable). */
export function sqliteOptions(): Database.Options {
  if (!isEmbedded()) return {};
  if (!addon) {
    const file = placeAddon(addonFolder(), embeddedBytes(ADDON_ASSET), embeddedManifest().addonSha256);
    const mod = { exports: {} as object };
    process.dlopen(mod, file);
    addon = mod.exports;
  }
  // better-sqlite3 takes the loaded addon as well as a path (its docs; its types name only the path). A path
  // would be loaded with the executable's require, which inside a single executable loads built-ins only.
  return { nativeBinding: addon } as unknown as Database.Options;
}
