import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { sqliteOptions } from './native';
import { appVersion } from '../../lib/build-info';
import { ensurePrivateDir } from '../../config';

/**
 * `blast-console backup FILE` and `restore FILE` for the embedded SQLite store. A backup is one SQLite file:
 * a consistent copy made with SQLite's online backup API (the server keeps running and writing), plus a
 * `blast_backup` table holding DATA_DIR's secret key and session secret (without them the copy's encrypted
 * Cloud API tokens could not be read) and the uploaded files (template media, validator files), which the
 * rows name. It is written 0600, like the secrets themselves.
 */
const DB_FILE = 'blast.db';
const SECRET_FILES = ['secret-key', 'jwt-secret'] as const;
const BACKUP_TABLE = 'blast_backup';

export class CommandError extends Error {}

export interface BackupResult {
  file: string;
  bytes: number;
  secrets: string[];
  uploads: number;
}

const UPLOADS = 'uploads';

/** Files under DATA_DIR/uploads as '/'-separated paths relative to DATA_DIR (temporary uploads left out). */
function uploadedFiles(dataDir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dataDir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(r);
      else if (e.isFile()) out.push(r);
    }
  };
  walk(UPLOADS);
  return out.sort();
}

/** Copies DATA_DIR's database and secrets into `file` (replaced atomically when it exists). */
export async function backupDatabase(dataDir: string, file: string): Promise<BackupResult> {
  const source = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(source)) throw new CommandError(`No database at ${source}: check DATA_DIR.`);
  const target = path.resolve(file);
  const partial = `${target}.partial-${process.pid}`;
  fs.writeFileSync(partial, '', { mode: 0o600 });
  try {
    const db = new Database(source, { fileMustExist: true, timeout: 5000, ...sqliteOptions() });
    try {
      await db.backup(partial);
    } finally {
      db.close();
    }
    const copy = new Database(partial, { fileMustExist: true, ...sqliteOptions() });
    const secrets: string[] = [];
    let uploads: string[] = [];
    try {
      // One self-contained file: no -wal beside it.
      copy.pragma('journal_mode = DELETE');
      copy.exec(`CREATE TABLE ${BACKUP_TABLE} (name TEXT PRIMARY KEY, content BLOB NOT NULL)`);
      const put = copy.prepare(`INSERT INTO ${BACKUP_TABLE} (name, content) VALUES (?, ?)`);
      put.run('version', Buffer.from(appVersion()));
      for (const name of SECRET_FILES) {
        const secretFile = path.join(dataDir, name);
        if (!fs.existsSync(secretFile)) continue;
        put.run(name, fs.readFileSync(secretFile));
        secrets.push(name);
      }
      uploads = uploadedFiles(dataDir);
      copy.transaction(() => {
        for (const rel of uploads) put.run(rel, fs.readFileSync(path.join(dataDir, rel)));
      })();
      checkIntegrity(copy, target);
    } finally {
      copy.close();
    }
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, target);
    return { file: target, bytes: fs.statSync(target).size, secrets, uploads: uploads.length };
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

function checkIntegrity(db: Database.Database, name: string): void {
  const rows = db.pragma('integrity_check') as { integrity_check: string }[];
  const problems = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
  if (problems.length) throw new CommandError(`${name} fails SQLite's integrity check: ${problems.slice(0, 3).join('; ')}`);
}

/** True when a process (a running server) has the database open: it then holds SQLite's shared locks. */
function inUse(file: string): boolean {
  const db = new Database(file, { fileMustExist: true, timeout: 0, ...sqliteOptions() });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw err;
  } finally {
    db.close();
  }
}

export interface RestoreResult {
  database: string;
  /** Earlier files moved aside (a stopped install's database and secrets), never deleted. */
  keptAside: string[];
  secrets: string[];
  uploads: number;
  version: string | null;
}

/**
 * Puts a backup into DATA_DIR after checking it: SQLite's integrity check passes and it is a backup of this
 * console. DATA_DIR must be empty or its server stopped; the files the backup replaces are renamed with a
 * `.before-restore-<time>` suffix, so a restore can itself be undone.
 */
export function restoreDatabase(dataDir: string, file: string): RestoreResult {
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new CommandError(`No file ${source}.`);
  ensurePrivateDir(dataDir);
  const target = path.join(dataDir, DB_FILE);
  if (fs.existsSync(target) && fs.statSync(target).size > 0 && inUse(target)) {
    throw new CommandError(`The server is running on ${dataDir} (its database is open): stop it, then restore.`);
  }
  const staging = path.join(dataDir, `.restore-${process.pid}.db`);
  fs.copyFileSync(source, staging);
  fs.chmodSync(staging, 0o600);
  let secrets = new Map<string, Buffer>();
  let uploads: { name: string; content: Buffer }[] = [];
  let version: string | null = null;
  try {
    const db = new Database(staging, { fileMustExist: true, ...sqliteOptions() });
    try {
      checkIntegrity(db, source);
      const has = (table: string) => Boolean(db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table));
      if (!has(BACKUP_TABLE) || !has('__drizzle_migrations') || !has('users')) {
        throw new CommandError(`${source} is not a backup made by blast-console backup.`);
      }
      const rows = db.prepare(`SELECT name, content FROM ${BACKUP_TABLE}`).all() as { name: string; content: Buffer }[];
      secrets = new Map(rows.filter((r) => (SECRET_FILES as readonly string[]).includes(r.name)).map((r) => [r.name, r.content]));
      version = rows.find((r) => r.name === 'version')?.content.toString() ?? null;
      // Only plain paths under uploads/: a crafted row cannot write outside DATA_DIR.
      uploads = rows.filter((r) => r.name.startsWith(`${UPLOADS}/`) && !r.name.split('/').some((p) => p === '..' || p === '' || p === '.'));
      db.exec(`DROP TABLE ${BACKUP_TABLE}`);
    } finally {
      db.close();
    }
  } catch (err) {
    fs.rmSync(staging, { force: true });
    if (err instanceof CommandError) throw err;
    throw new CommandError(`${source} cannot be restored: ${err instanceof Error ? err.message : String(err)}`);
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const keptAside: string[] = [];
  const setAside = (f: string) => {
    if (!fs.existsSync(f)) return;
    const aside = `${f}.before-restore-${stamp}`;
    fs.renameSync(f, aside);
    keptAside.push(aside);
  };
  for (const f of [target, `${target}-wal`, `${target}-shm`]) setAside(f);
  for (const [name, content] of secrets) {
    const f = path.join(dataDir, name);
    if (fs.existsSync(f) && fs.readFileSync(f).equals(content)) continue;
    setAside(f);
    fs.writeFileSync(f, content, { mode: 0o600 });
  }
  for (const u of uploads) {
    const f = path.join(dataDir, ...u.name.split('/'));
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, u.content);
  }
  fs.renameSync(staging, target);
  return { database: target, keptAside, secrets: [...secrets.keys()], uploads: uploads.length, version };
}

/** What `backup` says on PostgreSQL: its own tools make the consistent copy. */
export const pgDumpAdvice = (file: string): string =>
  [
    'This install keeps its data in PostgreSQL (DATABASE_URL): back it up with pg_dump, for example',
    `  pg_dump --format=custom --file=${JSON.stringify(file)} "$DATABASE_URL"`,
    'and restore with pg_restore --clean --dbname="$DATABASE_URL". Keep JWT_SECRET and SECRET_KEY with the dump.',
  ].join('\n');
