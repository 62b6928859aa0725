import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { closeDb, openDb, type Db } from '../../server/src/db/client';
import { users } from '../../server/src/db/schema';
import { createUser } from '../../server/src/auth/service';
import { backupDatabase, CommandError, restoreDatabase } from '../../server/src/db/sqlite/backup';
import { appliedWhenOpened, pendingAfter, readMigrations } from '../../server/src/db/migrations';

let dir: string;
let live: Db | null = null;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-backup-'));
});
afterEach(async () => {
  if (live) await closeDb(live);
  live = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A DATA_DIR as a server leaves it: the database (open, writes still in its WAL) and both secret files. */
async function runningInstall(name: string): Promise<{ dataDir: string; db: Db }> {
  const dataDir = path.join(dir, name);
  fs.mkdirSync(dataDir, { mode: 0o700 });
  fs.writeFileSync(path.join(dataDir, 'secret-key'), 'a2V5LWtleS1rZXkta2V5LWtleS1rZXkta2V5LWtleS0=', { mode: 0o600 });
  fs.writeFileSync(path.join(dataDir, 'jwt-secret'), 'jwt-secret-of-this-install', { mode: 0o600 });
  fs.mkdirSync(path.join(dataDir, 'uploads', 'templates'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'uploads', 'templates', 'promo.jpg'), Buffer.from([0xff, 0xd8, 0xff, 1, 2, 3]));
  const db = openDb(path.join(dataDir, 'blast.db'));
  await createUser(db, { email: 'kept@example.com', password: 'secret123', role: 'member', firstname: 'Kept', lastname: 'Member' });
  return { dataDir, db };
}

describe('backup and restore of the SQLite store', () => {
  it('copies the database while it is open and writing, with its secrets, into a private file', async () => {
    const { dataDir, db } = await runningInstall('source');
    live = db;
    const file = path.join(dir, 'nightly.db');
    const result = await backupDatabase(dataDir, file);
    expect(result.secrets).toEqual(['secret-key', 'jwt-secret']);
    expect(result.uploads).toBe(1);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // One self-contained file (no -wal beside it) that SQLite finds whole.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const copy = new Database(file, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.prepare('SELECT email FROM users').all()).toEqual([{ email: 'kept@example.com' }]);
    copy.close();
    // The server's connection went on working throughout.
    await createUser(db, { email: 'after@example.com', password: 'secret123', role: 'member', firstname: 'A', lastname: 'B' });
  });

  it('restores into an empty DATA_DIR: the same rows, the same secrets, no backup table left', async () => {
    const { dataDir, db } = await runningInstall('source');
    live = db;
    const file = path.join(dir, 'b.db');
    await backupDatabase(dataDir, file);
    const target = path.join(dir, 'fresh');
    const result = restoreDatabase(target, file);
    expect(result.keptAside).toEqual([]);
    expect(result.uploads).toBe(1);
    expect(fs.readFileSync(path.join(target, 'uploads', 'templates', 'promo.jpg'))).toEqual(fs.readFileSync(path.join(dataDir, 'uploads', 'templates', 'promo.jpg')));
    expect(result.version).toMatch(/^\d+\.\d+\.\d+\+/);
    for (const name of ['secret-key', 'jwt-secret']) {
      expect(fs.readFileSync(path.join(target, name), 'utf8')).toBe(fs.readFileSync(path.join(dataDir, name), 'utf8'));
      expect(fs.statSync(path.join(target, name)).mode & 0o777).toBe(0o600);
    }
    const restored = openDb(path.join(target, 'blast.db'));
    try {
      const [row] = await restored.select().from(users).where(eq(users.email, 'kept@example.com'));
      expect(row?.firstname).toBe('Kept');
      expect(restored.$client.prepare("SELECT name FROM sqlite_master WHERE name = 'blast_backup'").get()).toBeUndefined();
      expect(appliedWhenOpened(restored)).toEqual([]);
    } finally {
      await closeDb(restored);
    }
  });

  it('refuses a DATA_DIR whose database is open, and sets a stopped one aside instead of deleting it', async () => {
    const { dataDir, db } = await runningInstall('source');
    const file = path.join(dir, 'b.db');
    await backupDatabase(dataDir, file);
    await createUser(db, { email: 'later@example.com', password: 'secret123', role: 'member', firstname: 'L', lastname: 'M' });
    expect(() => restoreDatabase(dataDir, file)).toThrow(/The server is running on .*stop it, then restore/);
    await closeDb(db);
    const result = restoreDatabase(dataDir, file);
    expect(result.keptAside.map((f) => path.basename(f))).toEqual([expect.stringMatching(/^blast\.db\.before-restore-/)]);
    const previous = new Database(result.keptAside[0]!, { readonly: true });
    expect(previous.prepare("SELECT count(*) AS n FROM users WHERE email = 'later@example.com'").get()).toEqual({ n: 1 });
    previous.close();
    const now = new Database(path.join(dataDir, 'blast.db'), { readonly: true });
    expect(now.prepare("SELECT count(*) AS n FROM users WHERE email = 'later@example.com'").get()).toEqual({ n: 0 });
    now.close();
  });

  it('refuses a damaged file and a database that is not a backup, leaving DATA_DIR as it was', async () => {
    const { dataDir, db } = await runningInstall('source');
    live = db;
    const file = path.join(dir, 'b.db');
    await backupDatabase(dataDir, file);
    const damaged = path.join(dir, 'damaged.db');
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const target = path.join(dir, 'target');
    expect(() => restoreDatabase(target, damaged)).toThrow(CommandError);
    const foreign = path.join(dir, 'foreign.db');
    new Database(foreign).exec('CREATE TABLE notes (x)');
    expect(() => restoreDatabase(target, foreign)).toThrow(/is not a backup made by blast-console backup/);
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it('says where the database is missing instead of making an empty backup', async () => {
    await expect(backupDatabase(path.join(dir, 'nothing'), path.join(dir, 'x.db'))).rejects.toThrow(/No database at .*check DATA_DIR/);
    expect(fs.existsSync(path.join(dir, 'x.db'))).toBe(false);
  });
});

describe('migrations named as they are applied', () => {
  it('names every migration a new database gets, in journal order, and none when it is up to date', async () => {
    const file = path.join(dir, 'm.db');
    const tags = readMigrations('sqlite').map((m) => m.tag);
    expect(tags[0]).toBe('0000_init');
    const first = openDb(file);
    expect(appliedWhenOpened(first)).toEqual(tags);
    await closeDb(first);
    const again = openDb(file);
    expect(appliedWhenOpened(again)).toEqual([]);
    await closeDb(again);
  });

  it('takes only those newer than the newest applied, as Drizzle does', () => {
    const all = readMigrations('pg');
    expect(pendingAfter(all, null)).toHaveLength(all.length);
    expect(pendingAfter(all, all.at(-2)!.folderMillis)).toEqual([all.at(-1)!.tag]);
    expect(pendingAfter(all, all.at(-1)!.folderMillis)).toEqual([]);
  });
});
