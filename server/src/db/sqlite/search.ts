import type Database from 'better-sqlite3';
import type { Db } from '../client';
import { gate } from '../gate';
import { chooseTrigrams, matchExpression, trigramsOf, type TrigramSample } from '../../phonenumbers/trigrams';
import { clientOf, listVersion, maxPhoneId, phoneListFigures, scheduleFolding, storeOpen } from './phonenumbers';

/**
 * Search over millions of phone numbers on SQLite: a contentless FTS5 trigram index over number and
 * name finds rows containing a fragment (3+ characters); candidates are re-checked with LIKE. Imports
 * do not index inline (that would halve their speed): rows above `indexed_upto` are indexed afterwards
 * in small background steps, and a search meanwhile scans that not-yet-indexed tail directly.
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

function ensureSync(db: Db): void {
  if (ready.has(db)) return;
  clientOf(db).exec(SETUP);
  ready.add(db);
}

/**
 * Creates the search index, its state row and triggers once per database (idempotent). Nothing is
 * indexed before it exists, so creating it at the first search is as good as at start-up.
 */
export async function ensurePhoneSearch(db: Db): Promise<void> {
  if (ready.has(db)) return;
  while (gate.blocked()) await gate.free();
  ensureSync(db);
}

function indexedUpto(db: Db): number {
  ensureSync(db);
  return (clientOf(db).prepare('SELECT indexed_upto AS upto FROM phone_numbers_fts_state WHERE id = 1').get() as { upto: number }).upto;
}

/** Indexes up to `limit` rows above the indexed mark; answers how many rows are still left (0 or 1). */
function indexStepSync(db: Db, limit: number): number {
  const upto = indexedUpto(db);
  const c = clientOf(db);
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
export async function scheduleIndexing(db: Db, log?: (msg: string, err?: unknown) => void): Promise<void> {
  scheduleFolding(db);
  if (running.has(db)) return;
  running.add(db);
  const step = async () => {
    try {
      if (!storeOpen(db)) return running.delete(db);
      while (gate.blocked()) await gate.free();
      if (storeOpen(db) && indexStepSync(db, 2000) > 0) setTimeout(() => void step(), 0).unref();
      else running.delete(db);
    } catch (err) {
      running.delete(db);
      log?.('Indexing phone numbers for search failed', err);
    }
  };
  setTimeout(() => void step(), 0).unref();
}

function indexAllSync(db: Db): void {
  while (indexStepSync(db, 20_000) > 0);
}

/** Indexes everything now (tests, benchmarks). */
export async function indexAll(db: Db): Promise<void> {
  while (gate.blocked()) await gate.free();
  indexAllSync(db);
}

/** Up to this many rows not indexed yet are indexed before a search instead of scanned. */
const SMALL_TAIL = 5000;

const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

const MATCHES = `(p.number LIKE @like ESCAPE '\\' OR p.name LIKE @like ESCAPE '\\')`;

interface Matches {
  version: string;
  ids: number[];
}
/** The last searches' matching ids, so paging through one is a slice. */
const MATCH_CACHE_SIZE = 32;
const matchCache = new WeakMap<Db, Map<string, Matches>>();

/**
 * Ids of the rows whose number or name contains `search` (case-insensitively), in id order, at most
 * `cap` of them. Answers of the last searches are kept until the list changes.
 */
export async function searchPhoneIds(db: Db, search: string, cap: number, log?: (msg: string, err?: unknown) => void): Promise<number[]> {
  const total = (await phoneListFigures(db)).total;
  while (gate.blocked()) await gate.free();
  const c = clientOf(db);
  let upto = indexedUpto(db);
  const top = maxPhoneId(c);
  if (search.length >= 3 && top > upto && top - upto <= SMALL_TAIL) {
    indexAllSync(db);
    upto = top;
  } else if (top > upto) void scheduleIndexing(db, log);
  const version = `${listVersion(c)}:${upto}:${top}:${cap}`;
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
  const column = (rows: unknown[]) => (rows as Array<[number]>).map((r) => r[0]);
  let ids: number[];
  if (search.length < 3) {
    // Too short for the trigram index: a bounded scan.
    ids = column(c.prepare(`SELECT p.id FROM phone_numbers p WHERE ${MATCHES} ORDER BY p.id LIMIT ${cap}`).raw().all({ like }));
  } else {
    const match = matchExpression(chooseTrigrams(search, total, () => sample(db, c, total)));
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
  cache.set(search, { version, ids });
  if (cache.size > MATCH_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return ids;
}

const SAMPLE_ROWS = 4000;
const samples = new WeakMap<Db, TrigramSample & { total: number; at: number }>();

/** Trigram counts over up to SAMPLE_ROWS rows picked by random id seeks (a few ms, cached). */
function sample(db: Db, c: Database.Database, total: number): TrigramSample {
  const cached = samples.get(db);
  // Frequencies drift slowly: resample when the list grew or shrank by a fifth, or hourly.
  if (cached && Math.abs(total - cached.total) <= cached.total / 5 && Date.now() - cached.at < 3_600_000) return cached;
  const { lo, hi } = c.prepare('SELECT coalesce(min(id), 0) AS lo, coalesce(max(id), 0) AS hi FROM phone_numbers').get() as { lo: number; hi: number };
  const pick = c.prepare('SELECT number, name FROM phone_numbers WHERE id >= ? ORDER BY id LIMIT 1').raw();
  const counts = new Map<string, number>();
  const n = Math.min(SAMPLE_ROWS, total);
  for (let i = 0; i < n; i++) {
    const row = pick.get(lo + Math.floor(Math.random() * (hi - lo + 1))) as [string, string] | undefined;
    if (!row) continue;
    for (const t of new Set([...trigramsOf(row[0]), ...trigramsOf(row[1])])) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  const fresh = { total, rows: n, counts, at: Date.now() };
  samples.set(db, fresh);
  return fresh;
}
