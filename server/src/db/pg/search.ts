import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { rawAll } from '../raw';

/**
 * Search by any fragment of a number or a name on PostgreSQL: ILIKE '%…%', served by the pg_trgm GIN
 * indexes for fragments of three characters or more. The indexes follow every write, so there is no
 * background indexing to prepare or schedule.
 */
export async function ensurePhoneSearch(_db: Db): Promise<void> {}
export async function scheduleIndexing(_db: Db, _log?: (msg: string, err?: unknown) => void): Promise<void> {}
export async function indexAll(_db: Db): Promise<void> {}

const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** Ids of the rows whose number or name contains `search` (case-insensitively), in id order, at most `cap`. */
export async function searchPhoneIds(db: Db, search: string, cap: number): Promise<number[]> {
  const like = likeOf(search);
  const rows = await rawAll<{ id: number }>(
    db,
    sql`SELECT id FROM phone_numbers WHERE number ILIKE ${like} ESCAPE '\\' OR name ILIKE ${like} ESCAPE '\\' ORDER BY id LIMIT ${cap}`,
  );
  return rows.map((r) => r.id);
}
