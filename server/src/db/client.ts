import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema';
import { fromRoot } from '../lib/paths';
import { seedSettings } from '../settings/service';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const MIGRATIONS = fromRoot('drizzle');

/**
 * The database file is created 0600 before SQLite opens it; SQLite gives its -wal and -shm files
 * the database file's mode. Files of an older install are tightened too.
 */
function privateFiles(file: string): void {
  if (file === ':memory:' || file === '') return;
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(f)) fs.chmodSync(f, 0o600);
}

export function openDb(file: string): Db {
  privateFiles(file);
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder: MIGRATIONS });
  seedSettings(db);
  return db;
}

/** A fresh, migrated database for tests: in memory unless a file is given. */
export function createTestDb(file = ':memory:'): Db {
  return openDb(file);
}

/**
 * Runs a money-moving change with synchronous=FULL so it survives a power loss,
 * then returns to NORMAL for the high-volume rest.
 */
export function moneyTransaction<T>(db: Db, fn: (tx: Tx) => T): T {
  db.$client.pragma('synchronous = FULL');
  try {
    return db.transaction(fn, { behavior: 'immediate' });
  } finally {
    db.$client.pragma('synchronous = NORMAL');
  }
}

export function closeDb(db: Db): void {
  try {
    db.$client.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // in-memory databases have no WAL to checkpoint
  }
  db.$client.close();
}
