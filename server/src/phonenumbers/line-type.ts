import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { phoneNumbers } from '../db/schema';
import { searchPhoneIds, typePageIds } from '../db/phonelist';
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
 * Ids of one page of the numbers of one line type, in id order. Unsearched: the type's maintained
 * block sums and a short seek (no count or skip over the type's rows). Searched: the search's matches
 * (trigram index, at most the count cap) kept when they are of the type, so `capped` says the search
 * itself stopped counting.
 */
export async function pageIdsOfLineType(db: Db, lineType: LineTypeFilter, search: string, offset: number, limit: number, log?: (msg: string, err?: unknown) => void): Promise<IdPage> {
  if (!search) return { ...(await typePageIds(db, lineType, offset, limit)), capped: false };
  const matches = await searchPhoneIds(db, search, SEARCH_COUNT_CAP + 1, log);
  const capped = matches.length > SEARCH_COUNT_CAP;
  const ofType: number[] = [];
  for (let i = 0; i < Math.min(matches.length, SEARCH_COUNT_CAP); i += 1000) {
    const chunk = matches.slice(i, Math.min(i + 1000, SEARCH_COUNT_CAP));
    const rows = await db
      .select({ id: phoneNumbers.id })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.lineType, lineType), inArray(phoneNumbers.id, chunk)));
    for (const r of rows) ofType.push(r.id);
  }
  ofType.sort((a, b) => a - b);
  return { ids: ofType.slice(offset, offset + limit), total: ofType.length, capped };
}
