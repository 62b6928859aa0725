import type pg from 'pg';
import { is } from 'drizzle-orm';
import { PgDatabase } from 'drizzle-orm/pg-core';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import crypto from 'node:crypto';
import * as schema from './schema';
import { applyMigrations, recordApplied } from './migrations';
import { setActiveDialect } from './dialect';
import { getLogger } from '../lib/logger';
import { maskedUrl, StartFailure } from '../lib/errors';

/**
 * PostgreSQL through Drizzle's node-postgres driver. The tables are the ones of ./schema; their columns
 * map to PostgreSQL columns of the same names whose values travel as the same JavaScript values
 * (times as epoch milliseconds in bigint, flags as 0/1 smallint, JSON as text), so one query builder
 * serves both stores. drizzle/pg holds this dialect's migrations. The driver, Drizzle's node-postgres
 * binding and its migrator load with the first PostgreSQL handle: an install on SQLite never loads them.
 */
export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };

let loaded: Promise<{ pg: typeof pg; drizzle: typeof import('drizzle-orm/node-postgres').drizzle }> | null = null;

function driver() {
  loaded ??= Promise.all([import('pg'), import('drizzle-orm/node-postgres')]).then(([p, d]) => {
    // bigint (int8) columns hold epoch milliseconds and counters well below 2^53: read them as numbers.
    // Sums over money use SQL numeric and are read as strings, then BigInt, by the code that needs them.
    p.default.types.setTypeParser(p.default.types.builtins.INT8, (v: string) => Number(v));
    return { pg: p.default, drizzle: d.drizzle };
  });
  return loaded;
}

/** Any fixed number: the advisory lock key migrations run under. */
const MIGRATION_LOCK = 7_447_001;

const testSchemas = new WeakMap<object, { schema: string; url: string }>();

export const isPostgresUrl = (target: string): boolean => /^postgres(ql)?:\/\//i.test(target);

/** True for a PostgreSQL handle or a transaction on one. */
export function isPostgres(db: unknown): db is PgDb {
  return is(db, PgDatabase);
}

function pool(pg: typeof import('pg').default, url: string, searchPath?: string): pg.Pool {
  const p = new pg.Pool({
    connectionString: url,
    max: Number(process.env.PG_POOL_MAX ?? 10),
    idleTimeoutMillis: 10_000,
    ...(searchPath ? { options: `-c search_path=${searchPath},public` } : {}),
  });
  // A connection the server ends (a restart, a failover, a proxy's idle reaper) emits 'error', which with no
  // listener ends the process. An idle one is dropped by the pool; one checked out fails its next query
  // (the request or transaction fails and rolls back) and is dropped when released. The next query opens
  // a new connection, so the node serves again as soon as PostgreSQL is back.
  p.on('error', (err) => getLogger().warn({ err: err.message }, 'PostgreSQL connection lost'));
  p.on('connect', (client) => client.on('error', () => undefined));
  return p;
}

/**
 * Runs `fn` holding the start lock, so nodes starting together do their start-up writes (migrations, the
 * stored numbers' re-normalising, the demo and the first admin) one after the other instead of racing.
 */
export async function underStartLock<T>(db: PgDb, fn: () => Promise<T>): Promise<T> {
  const lock = await db.$client.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    return await fn();
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    lock.release();
  }
}

/** How long a start waits for PostgreSQL to accept a connection. */
const START_CONNECT_MS = 10_000;

export async function openPostgres(url: string): Promise<PgDb> {
  const { pg, drizzle } = await driver();
  // A server that does not answer (or a URL it cannot read) stops the start with the reason, not a stack.
  try {
    const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: START_CONNECT_MS });
    probe.on('error', () => undefined);
    await probe.connect();
    await probe.end();
  } catch (err) {
    throw new StartFailure(`Cannot connect to PostgreSQL at ${maskedUrl(url)}: ${err instanceof Error ? err.message : String(err)}. Check DATABASE_URL and that the server runs and accepts this user.`);
  }
  setActiveDialect('postgres');
  const client = pool(pg, url);
  const db = drizzle(client, { schema }) as PgDb;
  // Nodes starting together migrate one after the other: the first applies, the others find nothing to do.
  const tags = await underStartLock(db, async () => applyMigrations(db, 'pg', await lastMigration(db, 'drizzle')));
  recordApplied(db, tags);
  for (const tag of tags) getLogger().info({ migration: tag }, 'migration applied');
  return db;
}

/** A new schema on the server named by `url`, migrated, used only by the returned handle. */
export async function createPostgresTestDb(url: string): Promise<PgDb> {
  const { pg, drizzle } = await driver();
  const name = `t_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA "${name}"`);
  } finally {
    await admin.end();
  }
  setActiveDialect('postgres');
  const client = pool(pg, url, name);
  const db = drizzle(client, { schema }) as PgDb;
  recordApplied(db, await applyMigrations(db, 'pg', await lastMigration(db, name), name));
  testSchemas.set(db, { schema: name, url });
  return db;
}

/** When the newest applied migration was written (its journal time), or null before the first one. */
async function lastMigration(db: PgDb, schema: string): Promise<number | null> {
  const table = await db.$client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [`"${schema}".__drizzle_migrations`]);
  if (!table.rows[0]?.t) return null;
  const { rows } = await db.$client.query<{ at: string | number | null }>(`SELECT max(created_at) AS at FROM "${schema}".__drizzle_migrations`);
  return rows[0]?.at === null || rows[0]?.at === undefined ? null : Number(rows[0].at);
}

export async function closePostgres(db: PgDb): Promise<void> {
  await db.$client.end();
  const test = testSchemas.get(db);
  if (!test) return;
  const { pg } = await driver();
  const admin = new pg.Client({ connectionString: test.url });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS "${test.schema}" CASCADE`);
  } finally {
    await admin.end();
  }
}

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock
/** Attempts of one SERIALIZABLE transaction before its serialization failure is given up on. */
export const SERIALIZABLE_ATTEMPTS = 25;
/** The longest pause between two attempts, in milliseconds. */
const MAX_PAUSE_MS = 250;

/**
 * One transaction; SERIALIZABLE ones are retried when they lose a race. The pause before the next attempt is
 * random up to a bound that doubles with each attempt (up to MAX_PAUSE_MS): transactions that read and write
 * the same member's money conflict with each other, so a burst of them for one member can only commit about
 * one per round, and fixed short pauses let the same ones collide again until their attempts ran out.
 */
export async function postgresTransaction<T>(db: PgDb, fn: (tx: PgDb) => Promise<T>, options: { serializable: boolean }): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction((tx) => fn(tx as unknown as PgDb), options.serializable ? { isolationLevel: 'serializable' } : undefined);
    } catch (err) {
      const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
      if (!code || !RETRYABLE.has(code) || attempt >= SERIALIZABLE_ATTEMPTS) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(MAX_PAUSE_MS, 5 * 2 ** attempt)));
    }
  }
}
