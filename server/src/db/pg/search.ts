import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { rawAll, rawGet } from '../raw';

/**
 * Search by any fragment of a number or a name on PostgreSQL: ILIKE '%…%', served by the pg_trgm GIN
 * indexes for fragments of three characters or more. The indexes follow every write, so there is no
 * background indexing to prepare or schedule.
 *
 * As on SQLite, the matches of the last searches are kept in memory with the list's version (rows
 * counted, numbers and names edited, the highest id: drizzle/pg/0001's figures), so paging through the
 * matches of a common name runs the search once rather than once per page. Any change of a number, a
 * name, or of the rows listed (on any node) changes the version, and the search runs again.
 */
export async function ensurePhoneSearch(_db: Db): Promise<void> {}
export async function scheduleIndexing(_db: Db, _log?: (msg: string, err?: unknown) => void): Promise<void> {}
export async function indexAll(_db: Db): Promise<void> {}

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
export async function searchPhoneIds(db: Db, search: string, cap: number): Promise<number[]> {
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
  const rows = await rawAll<{ id: number }>(
    db,
    sql`SELECT id FROM phone_numbers WHERE number ILIKE ${like} ESCAPE '\\' OR name ILIKE ${like} ESCAPE '\\' ORDER BY id LIMIT ${cap}`,
  );
  const ids = rows.map((r) => r.id);
  cache.delete(search);
  cache.set(search, { version, ids });
  if (cache.size > MATCH_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return ids;
}
