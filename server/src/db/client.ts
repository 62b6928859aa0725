import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import fs from 'node:fs';
import * as schema from './schema';
import { applyMigrationsSync, recordApplied } from './migrations';
import { sqliteOptions } from './sqlite/native';
import { getLogger } from '../lib/logger';
import { seedSettings } from '../settings/service';
import { seedSettingsOnOpen } from './sqlite/settings';
import { keepStatements } from './sqlite/statements';
import { gate, installSqliteGate } from './gate';
import { setActiveDialect } from './dialect';
import { StartFailure } from '../lib/errors';
import { isPostgresUrl, openPostgres, closePostgres, createPostgresTestDb, postgresTransaction, isPostgres, underStartLock } from './postgres';

/**
 * The one database handle the services use. Its TypeScript shape is Drizzle's SQLite database (the
 * tables are declared once, in ./schema), and at run time it is either that or Drizzle's PostgreSQL
 * database on the same table objects: services only build queries and `await` them, run transactions
 * through `transaction()`/`moneyTransaction()` below and raw SQL through ./raw, so they never know which.
 */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The database file is created 0600 before SQLite opens it; SQLite gives its -wal and -shm files
 * the database file's mode. Files of an older install are tightened too.
 */
function privateFiles(file: string): void {
  if (file === ':memory:' || file === '') return;
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(f)) fs.chmodSync(f, 0o600);
}

function openSqlite(file: string): Db {
  installSqliteGate();
  setActiveDialect('sqlite');
  let sqlite: Database.Database;
  try {
    privateFiles(file);
    sqlite = new Database(file, sqliteOptions());
    sqlite.pragma('journal_mode = WAL');
  } catch (err) {
    // A file of another user or on a read-only disk: what and where, not a stack trace.
    throw new StartFailure(`Cannot open the database file ${file}: ${err instanceof Error ? err.message : String(err)}. DATA_DIR and the files in it must belong to the user the server runs as.`);
  }
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  keepStatements(sqlite);
  const db = drizzle(sqlite, { schema }) as Db;
  const tags = applyMigrationsSync(db, lastMigration(sqlite));
  recordApplied(db, tags);
  logApplied(tags);
  return db;
}

/** When the newest applied migration was written (its journal time), or null for a new database. */
function lastMigration(sqlite: Database.Database): number | null {
  const exists = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!exists) return null;
  const row = sqlite.prepare('SELECT max(created_at) AS at FROM __drizzle_migrations').get() as { at: number | string | null };
  return row.at === null ? null : Number(row.at);
}

/** A start (or any command opening the store) names each migration it applied: an upgrade's log shows them. */
export function logApplied(tags: string[]): void {
  for (const tag of tags) getLogger().info({ migration: tag }, 'migration applied');
}

/** The embedded SQLite database (a file path) with its migrations applied; synchronous. */
export function openDb(file: string): Db {
  const db = openSqlite(file);
  seedSettingsOnOpen(db);
  return db;
}

/**
 * Opens the store named by `target`: a `postgres://` URL (PostgreSQL, migrations from drizzle/pg) or a
 * SQLite file path. Migrations are applied and the settings row exists when it resolves.
 */
export async function connectDb(target: string): Promise<Db> {
  const db = isPostgresUrl(target) ? ((await openPostgres(target)) as unknown as Db) : openSqlite(target);
  await seedSettings(db);
  return db;
}

/**
 * A fresh, migrated database for tests: in-memory SQLite (or the given file), or, when the tests run with
 * DATABASE_URL=postgres://…, a new schema of its own on that server (dropped again by closeDb).
 */
export async function createTestDb(file = ':memory:'): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (url && isPostgresUrl(url)) {
    const db = (await createPostgresTestDb(url)) as unknown as Db;
    await seedSettings(db);
    return db;
  }
  return openDb(file);
}

/**
 * Runs `fn` in one transaction and resolves with its result; a throw rolls everything back. On SQLite the
 * connection is shared, so queries of other callers wait (see ./gate) until it ends; a transaction
 * started inside another one joins it. `immediate` takes SQLite's write lock at BEGIN.
 */
export async function transaction<T>(db: Db, fn: (tx: Db) => Promise<T>, options: { immediate?: boolean; money?: boolean } = {}): Promise<T> {
  if (isPostgres(db)) return postgresTransaction(db, fn as never, { serializable: options.money === true }) as Promise<T>;
  if (gate.mine()) return fn(db);
  const client = db.$client;
  return gate.hold(async () => {
    if (options.money) client.pragma('synchronous = FULL');
    client.exec(options.immediate || options.money ? 'BEGIN IMMEDIATE' : 'BEGIN');
    try {
      const result = await fn(db);
      client.exec('COMMIT');
      return result;
    } catch (err) {
      if (client.inTransaction) client.exec('ROLLBACK');
      throw err;
    } finally {
      if (options.money) client.pragma('synchronous = NORMAL');
    }
  });
}

/**
 * A money-moving change: on SQLite an IMMEDIATE transaction with synchronous=FULL so it survives a power
 * loss; on PostgreSQL a SERIALIZABLE transaction, retried when it loses a serialization race. Side
 * effects outside the database (events) belong after it resolves, since a retry runs `fn` again.
 */
export function moneyTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return transaction(db, fn, { money: true });
}

/** Closes the store: a PostgreSQL pool ends (and a test schema is dropped); SQLite checkpoints its WAL. */
export async function closeDb(db: Db): Promise<void> {
  if (isPostgres(db)) return closePostgres(db);
  try {
    db.$client.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // in-memory databases have no WAL to checkpoint
  }
  db.$client.close();
}

let startQueue: Promise<unknown> = Promise.resolve();

/**
 * Start-up work that must not run twice at the same time: one after the other in this process, and on
 * PostgreSQL under the start lock, so other nodes on the same database wait too.
 */
export function oneStartAtATime<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const run = () => (isPostgres(db) ? underStartLock(db, fn) : fn());
  const next = startQueue.then(run, run);
  startQueue = next.catch(() => undefined);
  return next;
}
