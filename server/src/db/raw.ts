import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from './client';
import { gate } from './gate';
import { isPostgres } from './postgres';
import { activeDialect } from './dialect';

/**
 * Store-neutral helpers for what Drizzle's builders do not say the same way on both databases: raw SQL,
 * the first row, affected-row counts and a few SQL fragments. Services use these, never a driver.
 */

type Runner = { all: (q: SQL) => unknown[]; get: (q: SQL) => unknown; run: (q: SQL) => { changes: number } };
type PgRunner = { execute: (q: SQL) => Promise<{ rows: unknown[]; rowCount: number | null }> };

/** Every row of a raw query (columns as the database names them). */
export async function rawAll<T>(db: Db, query: SQL): Promise<T[]> {
  if (isPostgres(db)) return (await (db as unknown as PgRunner).execute(query)).rows as T[];
  return gate.whenFree(() => (db as unknown as Runner).all(query) as T[]);
}

/** The first row of a raw query, or undefined. */
export async function rawGet<T>(db: Db, query: SQL): Promise<T | undefined> {
  return (await rawAll<T>(db, query))[0];
}

/** Runs a raw statement; resolves with the number of rows it changed. */
export async function rawRun(db: Db, query: SQL): Promise<number> {
  if (isPostgres(db)) return (await (db as unknown as PgRunner).execute(query)).rowCount ?? 0;
  return gate.whenFree(() => (db as unknown as Runner).run(query).changes);
}

/** The first row a query answers (add `.limit(1)` to the query when more could match). */
export async function one<T>(query: PromiseLike<T[]>): Promise<T | undefined> {
  return (await query)[0];
}

/** Rows changed by an awaited update/delete/insert without `.returning()`, on either database. */
export function changes(result: unknown): number {
  const r = result as { changes?: number; rowCount?: number | null };
  return r.changes ?? r.rowCount ?? 0;
}

/** Which store the handle talks to — for the dialect code under server/src/db only. */
export const dialectOf = (db: Db): 'sqlite' | 'postgres' => (isPostgres(db) ? 'postgres' : 'sqlite');


/** Case-insensitive substring match (SQLite's LIKE already ignores ASCII case; PostgreSQL needs ILIKE). */
export function likeInsensitive(column: SQLWrapper, pattern: string): SQL {
  return activeDialect() === 'postgres' ? sql`${column} ILIKE ${pattern} ESCAPE '\\'` : sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}

/** The current time in epoch milliseconds, as the database computes it. */
export function nowMs(): SQL {
  return activeDialect() === 'postgres' ? sql`(extract(epoch from clock_timestamp()) * 1000)::bigint` : sql`(unixepoch('subsec') * 1000)`;
}

/** The larger of two values (SQLite's two-argument max(), PostgreSQL's greatest()). */
export function greatest(a: SQLWrapper | number, b: SQLWrapper | number): SQL {
  return activeDialect() === 'postgres' ? sql`greatest(${a}, ${b})` : sql`max(${a}, ${b})`;
}

/** The smaller of two values. */
export function least(a: SQLWrapper | number, b: SQLWrapper | number): SQL {
  return activeDialect() === 'postgres' ? sql`least(${a}, ${b})` : sql`min(${a}, ${b})`;
}
