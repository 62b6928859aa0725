import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../server/src/db/client';
import { dialectOf, rawAll, rawGet, rawRun } from '../../server/src/db/raw';

/**
 * Raw SQL for tests that fill or recount tables on either store: the statements are written once in the
 * SQL both dialects share; the few spellings that differ come from here.
 */
export const isSqlite = (db: Db) => dialectOf(db) === 'sqlite';

/** Every row of a query. */
export const rows = <T = Record<string, unknown>>(db: Db, query: SQL) => rawAll<T>(db, query);

/** Runs a statement; resolves with the rows it changed. */
export const run = (db: Db, query: SQL) => rawRun(db, query);

/** The first column of the first row as a number (PostgreSQL answers counts as bigint). */
export async function scalar(db: Db, query: SQL): Promise<number> {
  const row = await rawGet<Record<string, unknown>>(db, query);
  return Number(row ? Object.values(row)[0] ?? 0 : 0);
}

/** The `id` column of a query, in order. */
export async function idColumn(db: Db, query: SQL): Promise<number[]> {
  return (await rawAll<{ id: number }>(db, query)).map((r) => Number(r.id));
}

/** A series s(i) = 0 … n-1 as a WITH clause (a recursive CTE, the same on both stores). */
export const series = (n: number) => `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${n - 1})`;

/** An integer expression zero-padded to `width` digits (SQLite's printf, PostgreSQL's lpad). */
export const padded = (db: Db, expr: string, width: number) =>
  isSqlite(db) ? `printf('%0${width}d', ${expr})` : `lpad((${expr})::text, ${width}, '0')`;

/** A raw statement text, for statements built from the helpers above. */
export const text = (query: string) => sql.raw(query);
