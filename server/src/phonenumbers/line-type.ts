import { and, asc, count, eq, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { phoneNumbers } from '../db/schema';
import { likeInsensitive, one } from '../db/raw';
import { likePattern } from '../lib/paging';
import { SEARCH_COUNT_CAP, type IdPage } from './search';

/** The line types the list can filter on: the plan's three, and the two marks of the re-normalisation. */
export const LINE_TYPE_FILTERS = ['mobile', 'fixed_line', 'other', 'invalid', 'duplicate'] as const;
export type LineTypeFilter = (typeof LINE_TYPE_FILTERS)[number];

/** `?line_type=`: empty for all, else one of the filters (422 otherwise). */
export const lineTypeParam = z
  .union([z.string(), z.undefined(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')).trim())
  .pipe(z.union([z.literal(''), z.enum(LINE_TYPE_FILTERS, { message: `line_type harus salah satu dari ${LINE_TYPE_FILTERS.join(', ')}.` })]));

/**
 * Ids of one page of the numbers of one line type, in id order, through the line-type index; with a
 * search text too, a bounded scan of that type (counted up to the search cap, as searches are).
 */
export async function pageIdsOfLineType(db: Db, lineType: LineTypeFilter, search: string, offset: number, limit: number): Promise<IdPage> {
  const ofType = eq(phoneNumbers.lineType, lineType);
  if (!search) {
    const counted = await one(db.select({ n: count() }).from(phoneNumbers).where(ofType));
    const rows = await db.select({ id: phoneNumbers.id }).from(phoneNumbers).where(ofType).orderBy(asc(phoneNumbers.id)).limit(limit).offset(offset);
    return { ids: rows.map((r) => r.id), total: Number(counted?.n ?? 0), capped: false };
  }
  const pattern = likePattern(search);
  const where = and(ofType, or(likeInsensitive(phoneNumbers.number, pattern), likeInsensitive(phoneNumbers.name, pattern)));
  const matches = db
    .select({ one: sql`1` })
    .from(phoneNumbers)
    .where(where)
    .limit(SEARCH_COUNT_CAP + 1)
    .as('matches');
  const counted = await one(db.select({ n: count() }).from(matches));
  const n = Number(counted?.n ?? 0);
  const rows = await db.select({ id: phoneNumbers.id }).from(phoneNumbers).where(where).orderBy(asc(phoneNumbers.id)).limit(limit).offset(offset);
  return { ids: rows.map((r) => r.id), total: Math.min(n, SEARCH_COUNT_CAP), capped: n > SEARCH_COUNT_CAP };
}
