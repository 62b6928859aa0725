import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../client';
import type { PgDb } from '../postgres';
import { rawAll, rawGet } from '../raw';
import { storeOpen } from './phonenumbers';

/**
 * Search by any fragment of a number or a name on PostgreSQL: ILIKE '%…%' on `phone_search`, a copy of
 * every number's number and name under one pg_trgm GIN index (drizzle/pg/0019_phone_search.sql), for
 * fragments of three characters or more; shorter ones scan phone_numbers in id order.
 *
 * A large insert (an import) does not write the index inline: its id range waits in `phone_search_todo`
 * and is copied over afterwards in steps (`scheduleIndexing`), while a search reads phone_search plus the
 * rows of the ranges still waiting, in one statement (one snapshot), so its answer is exact all along.
 *
 * As on SQLite, the matches of the last searches are kept in memory with the list's version (rows
 * counted, numbers and names edited, the highest id: drizzle/pg/0001's figures), so paging through the
 * matches of a common name runs the search once rather than once per page. Any change of a number, a
 * name, or of the rows listed (on any node) changes the version, and the search runs again.
 */

/** Ids copied into phone_search per step: about a second of GIN work on a busy machine. */
const STEP_IDS = 10_000;

const pool = (db: Db) => (db as unknown as PgDb).$client;

/** Nothing to create: the migration made the table, its index and triggers. Copies what is left over from before (an upgrade). */
export async function ensurePhoneSearch(db: Db): Promise<void> {
  if (await waiting(db)) void scheduleIndexing(db);
}

async function waiting(db: Db): Promise<boolean> {
  return (await rawAll(db, sql`SELECT 1 FROM phone_search_todo LIMIT 1`)).length > 0;
}

/**
 * Copies up to STEP_IDS ids of the first waiting range into phone_search, in one transaction that also
 * shortens or removes the range, so a search sees each row in exactly one of the two. Ranges another
 * node is copying are skipped, or waited for when `wait`. Answers whether a range was found.
 */
async function indexStep(db: Db, wait = false): Promise<boolean> {
  const c: pg.PoolClient = await pool(db).connect();
  let broken: Error | undefined;
  try {
    await c.query('BEGIN');
    try {
      // Deletes wait for this step (drizzle/pg/0019: phone_search_deleted), and a step waits for them.
      await c.query(`SELECT pg_advisory_xact_lock_shared('phone_search'::regclass::oid::bigint)`);
      const { rows } = await c.query<{ id: number; lo: number; hi: number }>(`SELECT id, lo, hi FROM phone_search_todo ORDER BY lo, id LIMIT 1 FOR UPDATE${wait ? '' : ' SKIP LOCKED'}`);
      const range = rows[0];
      if (!range) {
        await c.query('COMMIT');
        return false;
      }
      const upto = Math.min(range.hi, range.lo + STEP_IDS - 1);
      await c.query(
        `INSERT INTO phone_search (id, number, name) SELECT id, number, name FROM phone_numbers WHERE id BETWEEN $1 AND $2
         ON CONFLICT (id) DO NOTHING`,
        [range.lo, upto],
      );
      if (upto >= range.hi) await c.query('DELETE FROM phone_search_todo WHERE id = $1', [range.id]);
      else await c.query('UPDATE phone_search_todo SET lo = $2 WHERE id = $1', [range.id, upto + 1]);
      await c.query('COMMIT');
      return true;
    } catch (err) {
      await c.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw err;
    }
  } finally {
    c.release(broken);
  }
}

const running = new WeakSet<Db>();

/** Copies the waiting ranges into phone_search in steps, one after another, in the background. */
export async function scheduleIndexing(db: Db, log?: (msg: string, err?: unknown) => void): Promise<void> {
  if (running.has(db)) return;
  running.add(db);
  const step = async () => {
    try {
      if (storeOpen(db) && (await indexStep(db))) setTimeout(() => void step(), 0).unref();
      else running.delete(db);
    } catch (err) {
      running.delete(db);
      if (storeOpen(db)) log?.('Indexing phone numbers for search failed', err);
    }
  };
  setTimeout(() => void step(), 0).unref();
}

/** Copies everything waiting now, waiting for the steps running elsewhere (tests, benchmarks). */
export async function indexAll(db: Db): Promise<void> {
  while (await indexStep(db, true));
}

const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

interface Matches {
  version: string;
  ids: number[];
}

const MATCH_CACHE_SIZE = 32;
const matchCache = new WeakMap<Db, Map<string, Matches>>();

/** The list's version: it changes whenever a search's answer may (rows added or removed, a number or name edited). */
async function listVersion(db: Db): Promise<string> {
  const row = await rawGet<{ total: string | null; edits: string | null; top: number | null }>(
    db,
    sql`SELECT (SELECT sum(total) FROM phone_list_state) AS total, (SELECT sum(edits) FROM phone_list_state) AS edits, (SELECT max(id) FROM phone_numbers) AS top`,
  );
  return `${row?.total ?? 0}:${row?.edits ?? 0}:${row?.top ?? 0}`;
}

/** Ids of the rows whose number or name contains `search` (case-insensitively), in id order, at most `cap`. */
export async function searchPhoneIds(db: Db, search: string, cap: number, log?: (msg: string, err?: unknown) => void): Promise<number[]> {
  // The version is read before the search: a change committed in between makes the next call search again.
  const version = `${await listVersion(db)}:${cap}`;
  const cache = matchCache.get(db) ?? new Map<string, Matches>();
  matchCache.set(db, cache);
  const hit = cache.get(search);
  if (hit?.version === version) {
    // Most recently used last, so the oldest is dropped first.
    cache.delete(search);
    cache.set(search, hit);
    return hit.ids;
  }
  const like = likeOf(search);
  const rows =
    search.length < 3
      ? // Too short for trigrams: a scan in id order that stops at the cap.
        await rawAll<{ id: number }>(
          db,
          sql`SELECT id FROM phone_numbers WHERE number ILIKE ${like} ESCAPE '\\' OR name ILIKE ${like} ESCAPE '\\' ORDER BY id LIMIT ${cap}`,
        )
      : // The copied rows by their index, and the rows of the ranges not copied yet (a row being in both is one match).
        await rawAll<{ id: number; waiting: boolean }>(
          db,
          sql`SELECT id, EXISTS (SELECT 1 FROM phone_search_todo) AS waiting FROM (
                SELECT id FROM phone_search WHERE number ILIKE ${like} ESCAPE '\\' OR name ILIKE ${like} ESCAPE '\\'
                UNION
                SELECT p.id FROM phone_search_todo t JOIN phone_numbers p ON p.id BETWEEN t.lo AND t.hi
                WHERE p.number ILIKE ${like} ESCAPE '\\' OR p.name ILIKE ${like} ESCAPE '\\'
              ) m ORDER BY id LIMIT ${cap}`,
        );
  const ids = rows.map((r) => r.id);
  // Ranges still waiting (rows a copy has not reached, or an upgrade's): copy them now in the background.
  const behind = rows.length > 0 && (rows[0] as { waiting?: boolean }).waiting === true;
  if (behind) void scheduleIndexing(db, log);
  cache.delete(search);
  cache.set(search, { version, ids });
  if (cache.size > MATCH_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return ids;
}
