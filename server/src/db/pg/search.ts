import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../client';
import type { PgDb } from '../postgres';
import { rawAll, rawGet } from '../raw';
import { storeOpen } from './phonenumbers';

/**
 * Search by any fragment of a number or a name on PostgreSQL: ILIKE '%…%' on `phone_search`, a copy of
 * every number's number and name under pg_trgm GIN indexes (drizzle/pg/0019_phone_search.sql), for
 * fragments of three characters or more; shorter ones scan phone_numbers in id order.
 *
 * A large insert (an import) does not write the index inline: its id range waits in `phone_search_todo`
 * and is copied over afterwards in steps (`scheduleIndexing`), while a search reads phone_search plus the
 * rows of the ranges still waiting, so its answer is exact all along (see searchPhoneIds).
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

/** An array parameter in PostgreSQL's text form (Drizzle spreads a JavaScript array into a list). */
const intArray = (xs: number[]) => `{${xs.map((x) => Math.trunc(Number(x))).join(',')}}`;

const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

interface Matches {
  version: string;
  ids: number[];
}

const MATCH_CACHE_SIZE = 32;
const matchCache = new WeakMap<Db, Map<string, Matches>>();

interface ListState {
  /** Changes whenever a search's answer may (rows added or removed, a number or name edited). */
  version: string;
  /** The id ranges not copied into phone_search yet. */
  lo: number[];
  hi: number[];
}

/** The list's version and the ranges waiting, in one statement. */
async function listState(db: Db): Promise<ListState> {
  const row = await rawGet<{ total: string | null; edits: string | null; top: number | null; lo: number[] | null; hi: number[] | null }>(
    db,
    sql`SELECT (SELECT sum(total) FROM phone_list_state) AS total, (SELECT sum(edits) FROM phone_list_state) AS edits, (SELECT max(id) FROM phone_numbers) AS top,
          (SELECT array_agg(lo ORDER BY lo) FROM phone_search_todo) AS lo, (SELECT array_agg(hi ORDER BY lo) FROM phone_search_todo) AS hi`,
  );
  return { version: `${row?.total ?? 0}:${row?.edits ?? 0}:${row?.top ?? 0}`, lo: row?.lo ?? [], hi: row?.hi ?? [] };
}

/**
 * Ids of the rows whose number or name contains `search` (case-insensitively), in id order, at most `cap`.
 *
 * The ranges waiting are read first, the matches second: a row listed before the first read was then
 * either copied (and is found in phone_search, where edits and deletes follow it) or in a range read (and
 * is found in phone_numbers; a copy made in between is the same row once). A large insert committed
 * between the two reads may be missed, and changes the version read with the ranges, so the next call
 * searches again.
 */
export async function searchPhoneIds(db: Db, search: string, cap: number, log?: (msg: string, err?: unknown) => void): Promise<number[]> {
  const state = await listState(db);
  const version = `${state.version}:${cap}`;
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
  const waiting = state.lo.length > 0;
  let rows: Array<{ id: number }>;
  if (search.length < 3) {
    // Too short for trigrams: a scan in id order that stops at the cap.
    rows = await rawAll(db, sql`SELECT id FROM phone_numbers WHERE number ILIKE ${like} ESCAPE '\\' OR name ILIKE ${like} ESCAPE '\\' ORDER BY id LIMIT ${cap}`);
  } else if (!waiting) {
    rows = await rawAll(db, sql`SELECT id FROM phone_search WHERE number ILIKE ${like} ESCAPE '\\' OR name ILIKE ${like} ESCAPE '\\' ORDER BY id LIMIT ${cap}`);
  } else {
    // The copied rows by their index, and the rows of the ranges waiting by id.
    rows = await rawAll(
      db,
      sql`SELECT id FROM (
            SELECT id FROM phone_search WHERE number ILIKE ${like} ESCAPE '\\' OR name ILIKE ${like} ESCAPE '\\'
            UNION
            SELECT p.id FROM unnest(${intArray(state.lo)}::int[], ${intArray(state.hi)}::int[]) AS t(lo, hi)
            CROSS JOIN LATERAL (SELECT id FROM phone_numbers p WHERE p.id BETWEEN t.lo AND t.hi
              AND (p.number ILIKE ${like} ESCAPE '\\' OR p.name ILIKE ${like} ESCAPE '\\')) p
          ) m ORDER BY id LIMIT ${cap}`,
    );
    // Copy them now in the background (rows a copy has not reached, or an upgrade's).
    void scheduleIndexing(db, log);
  }
  const ids = rows.map((r) => r.id);
  cache.delete(search);
  cache.set(search, { version, ids });
  if (cache.size > MATCH_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return ids;
}
