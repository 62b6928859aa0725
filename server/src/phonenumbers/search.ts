import type { Db } from '../db/client';
import { ensurePhoneSearch, indexAll, listPageIds, phoneListFigures, scheduleIndexing, searchPhoneIds } from '../db/phonelist';

/**
 * Fast paging and search over millions of phone numbers.
 *
 * - Search: a trigram index over number and name finds rows containing a fragment (3+ characters);
 *   candidates are re-checked with LIKE. Imports do not index inline: rows they add are indexed
 *   afterwards in small background steps (`scheduleIndexing`), and a search meanwhile scans them.
 * - Total rows and deep pages: maintained counters and per-block row counts (counters.ts), so the
 *   unfiltered list never counts or skips millions of rows per request.
 */
export { ensurePhoneSearch, indexAll, scheduleIndexing };

/** Exact number of phone numbers, from the maintained counters (see counters.ts). */
export async function phoneNumberTotal(db: Db): Promise<number> {
  return (await phoneListFigures(db)).total;
}

/** Largest number of matches a search counts; beyond it the answer says `capped`. */
export const SEARCH_COUNT_CAP = 10_000;

export interface IdPage {
  ids: number[];
  total: number;
  capped: boolean;
}

/** Ids of one page of the list, in id order, with the total. */
export async function pageIds(db: Db, search: string, offset: number, limit: number, log?: (msg: string, err?: unknown) => void): Promise<IdPage> {
  if (!search) return { ...(await listPageIds(db, offset, limit)), capped: false };
  const ids = await searchPhoneIds(db, search, SEARCH_COUNT_CAP + 1, log);
  const n = ids.length;
  return { ids: ids.slice(offset, offset + limit), total: Math.min(n, SEARCH_COUNT_CAP), capped: n > SEARCH_COUNT_CAP };
}
