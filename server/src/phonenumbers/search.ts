import type { Db } from '../db/client';
import { phoneListFigures, scheduleFolding, seekOffset } from './counters';
import { matchExpression, selectiveTrigrams, trigramsOf } from './trigrams';

/**
 * Fast paging and search over millions of phone numbers.
 *
 * - Search: a contentless FTS5 trigram index over number and name finds rows containing a
 *   fragment (3+ characters); candidates are re-checked with LIKE. Imports do not index inline
 *   (that would halve their speed): rows above `indexed_upto` are indexed afterwards in small
 *   background steps, and a search meanwhile scans that not-yet-indexed tail directly.
 * - Total rows and deep pages: maintained counters and per-block row counts (counters.ts), so the
 *   unfiltered list never counts or skips millions of rows per request.
 */

const SETUP = `
CREATE VIRTUAL TABLE IF NOT EXISTS phone_numbers_fts USING fts5(
  number, name, content='', contentless_delete=1, tokenize='trigram', detail=none
);
CREATE TABLE IF NOT EXISTS phone_numbers_fts_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  indexed_upto INTEGER NOT NULL DEFAULT 0,
  deletes INTEGER NOT NULL DEFAULT 0
);
INSERT OR IGNORE INTO phone_numbers_fts_state (id) VALUES (1);
CREATE TRIGGER IF NOT EXISTS phone_numbers_fts_ad AFTER DELETE ON phone_numbers BEGIN
  UPDATE phone_numbers_fts_state SET deletes = deletes + 1 WHERE id = 1;
  DELETE FROM phone_numbers_fts WHERE rowid = old.id;
END;
CREATE TRIGGER IF NOT EXISTS phone_numbers_fts_au AFTER UPDATE OF number, name ON phone_numbers
WHEN old.id <= (SELECT indexed_upto FROM phone_numbers_fts_state WHERE id = 1) BEGIN
  DELETE FROM phone_numbers_fts WHERE rowid = old.id;
  INSERT INTO phone_numbers_fts (rowid, number, name) VALUES (new.id, new.number, new.name);
END;
`;

const ready = new WeakSet<Db>();

/** Creates the search index, its state row and triggers once per database (idempotent). */
export function ensurePhoneSearch(db: Db): void {
  if (ready.has(db)) return;
  db.$client.exec(SETUP);
  ready.add(db);
}

interface State {
  upto: number;
  deletes: number;
}

function state(db: Db): State {
  ensurePhoneSearch(db);
  const row = db.$client.prepare('SELECT indexed_upto AS upto, deletes FROM phone_numbers_fts_state WHERE id = 1').get() as State;
  return row;
}

function maxId(db: Db): number {
  return (db.$client.prepare('SELECT coalesce(max(id), 0) AS m FROM phone_numbers').get() as { m: number }).m;
}

/** Indexes up to `limit` rows above the indexed mark; answers how many rows are still left. */
export function indexStep(db: Db, limit = 2000): number {
  const { upto } = state(db);
  const c = db.$client;
  return c.transaction(() => {
    const last = (c.prepare('SELECT max(id) AS m FROM (SELECT id FROM phone_numbers WHERE id > ? ORDER BY id LIMIT ?)').get(upto, limit) as {
      m: number | null;
    }).m;
    if (last === null) return 0;
    c.prepare('INSERT INTO phone_numbers_fts (rowid, number, name) SELECT id, number, name FROM phone_numbers WHERE id > ? AND id <= ?').run(upto, last);
    c.prepare('UPDATE phone_numbers_fts_state SET indexed_upto = ? WHERE id = 1').run(last);
    return (c.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM phone_numbers WHERE id > ? LIMIT 1)').get(last) as { n: number }).n;
  })();
}

const running = new WeakSet<Db>();

/** Indexes the not-yet-indexed rows in small steps, yielding to other requests between steps. */
export function scheduleIndexing(db: Db, log?: (msg: string, err?: unknown) => void): void {
  scheduleFolding(db);
  if (running.has(db)) return;
  running.add(db);
  const step = () => {
    try {
      if (!db.$client.open) return running.delete(db);
      if (indexStep(db) > 0) setTimeout(step, 0).unref();
      else running.delete(db);
    } catch (err) {
      running.delete(db);
      log?.('Indexing phone numbers for search failed', err);
    }
  };
  setTimeout(step, 0).unref();
}

/** Indexes everything now (tests, benchmarks, small tails before a search). */
export function indexAll(db: Db): void {
  while (indexStep(db, 20_000) > 0);
}

/** Exact number of phone numbers, from the maintained counters (see counters.ts). */
export function phoneNumberTotal(db: Db): number {
  return phoneListFigures(db).total;
}

/** Largest number of matches a search counts; beyond it the answer says `capped`. */
export const SEARCH_COUNT_CAP = 10_000;
const SMALL_TAIL = 5000;

function likeOf(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** `"abc" AND "bcd" …` for an FTS5 trigram index (every 3-character piece of the fragment). */
export function trigramQuery(text: string): string {
  return matchExpression(trigramsOf(text));
}

const MATCHES = `(p.number LIKE @like ESCAPE '\\' OR p.name LIKE @like ESCAPE '\\')`;

export interface IdPage {
  ids: number[];
  total: number;
  capped: boolean;
}

/** Ids of one page of the list, in id order, with the total. */
export function pageIds(db: Db, search: string, offset: number, limit: number, log?: (msg: string, err?: unknown) => void): IdPage {
  const c = db.$client;
  if (!search) {
    // Keyset paging: the page's block of ids comes from the counters, then one short seek.
    const { fromId, skip, total } = seekOffset(db, offset);
    if (offset >= total) return { ids: [], total, capped: false };
    const rows = c.prepare('SELECT id FROM phone_numbers WHERE id >= ? ORDER BY id LIMIT ? OFFSET ?').raw().all(fromId, limit, skip) as Array<[number]>;
    return { ids: rows.map((r) => r[0]), total, capped: false };
  }

  const matched = searchMatches(db, search, log);
  const n = matched.ids.length;
  return { ids: matched.ids.slice(offset, offset + limit), total: Math.min(n, SEARCH_COUNT_CAP), capped: n > SEARCH_COUNT_CAP };
}

interface Matches {
  version: string;
  ids: number[];
}
/** The last searches' matching ids (at most SEARCH_COUNT_CAP + 1 each), so paging through one is a slice. */
const MATCH_CACHE_SIZE = 32;
const matchCache = new WeakMap<Db, Map<string, Matches>>();

/** What a cached match list depends on: rows added, deleted, indexed, or renumbered / renamed. */
function dataVersion(db: Db, upto: number, top: number): string {
  const s = db.$client.prepare('SELECT counted_upto, total, edits FROM phone_list_state WHERE id = 1').raw().get() as number[];
  return `${s.join(':')}:${upto}:${top}`;
}

/** Ids of the rows whose number or name contains `search`, in id order, up to the cap + 1. */
function searchMatches(db: Db, search: string, log?: (msg: string, err?: unknown) => void): Matches {
  const c = db.$client;
  phoneListFigures(db);
  let { upto } = state(db);
  const top = maxId(db);
  if (search.length >= 3 && top > upto && top - upto <= SMALL_TAIL) {
    indexAll(db);
    upto = top;
  } else if (top > upto) scheduleIndexing(db, log);
  const version = dataVersion(db, upto, top);
  const cache = matchCache.get(db) ?? new Map<string, Matches>();
  matchCache.set(db, cache);
  const hit = cache.get(search);
  if (hit?.version === version) {
    // Most recently used last, so the oldest is dropped first.
    cache.delete(search);
    cache.set(search, hit);
    return hit;
  }

  const like = likeOf(search);
  const cap = SEARCH_COUNT_CAP + 1;
  const column = (rows: unknown[]) => (rows as Array<[number]>).map((r) => r[0]);
  let ids: number[];
  if (search.length < 3) {
    // Too short for the trigram index: a bounded scan.
    ids = column(c.prepare(`SELECT p.id FROM phone_numbers p WHERE ${MATCHES} ORDER BY p.id LIMIT ${cap}`).raw().all({ like }));
  } else {
    const match = matchExpression(selectiveTrigrams(db, search, phoneListFigures(db).total));
    ids = column(
      c
        .prepare(
          `SELECT p.id FROM phone_numbers_fts JOIN phone_numbers p ON p.id = phone_numbers_fts.rowid
           WHERE phone_numbers_fts MATCH @match AND ${MATCHES} ORDER BY phone_numbers_fts.rowid LIMIT ${cap}`,
        )
        .raw()
        .all({ match, like }),
    );
    if (ids.length < cap && top > upto) {
      // Rows not indexed yet (a large import being indexed in the background) are scanned.
      const tail = c.prepare(`SELECT p.id FROM phone_numbers p WHERE p.id > @upto AND ${MATCHES} ORDER BY p.id LIMIT @left`).raw();
      ids.push(...column(tail.all({ upto, like, left: cap - ids.length })));
    }
  }
  const fresh = { version, ids };
  cache.set(search, fresh);
  if (cache.size > MATCH_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return fresh;
}
