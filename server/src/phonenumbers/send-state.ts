import { and, asc, count, eq, inArray, isNotNull, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { phoneNumbers } from '../db/schema';
import { one } from '../db/raw';
import { searchPhoneIds } from '../db/phonelist';
import { SEARCH_COUNT_CAP, type IdPage } from './search';
import type { LineTypeFilter } from './line-type';

/**
 * The list's `?status=` by what sending left a number with (retries with a policy): 'failed' is 'Gagal
 * permanen' (attempts ran out, or a reason that will not pass), 'retrying' a number waiting for its next
 * attempt. Each is a partial index (phone_numbers_failed_idx, phone_numbers_retry_idx), so a page is a
 * short seek however long the list is.
 */
export const SEND_STATE_FILTERS = ['failed', 'retrying'] as const;
export type SendStateFilter = (typeof SEND_STATE_FILTERS)[number];

/** `?status=`: empty for all, else one of the filters (422 otherwise). */
export const sendStateParam = z
  .union([z.string(), z.undefined(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')).trim())
  .pipe(z.union([z.literal(''), z.enum(SEND_STATE_FILTERS, { message: 'status harus salah satu dari failed, retrying.' })]));

function condition(state: SendStateFilter, lineType: LineTypeFilter | ''): SQL {
  const own = state === 'failed' ? isNotNull(phoneNumbers.failedAt) : isNotNull(phoneNumbers.nextAttemptAt);
  return lineType ? and(own, eq(phoneNumbers.lineType, lineType))! : own;
}

/** Ids of one page of the numbers in a send state (and line type, when one is chosen), in id order; searched like the line types. */
export async function pageIdsOfSendState(
  db: Db,
  state: SendStateFilter,
  lineType: LineTypeFilter | '',
  search: string,
  offset: number,
  limit: number,
  log?: (msg: string, err?: unknown) => void,
): Promise<IdPage> {
  const where = condition(state, lineType);
  if (!search) {
    const total = Number((await one(db.select({ n: count() }).from(phoneNumbers).where(where)))?.n ?? 0);
    if (offset >= total) return { ids: [], total, capped: false };
    const rows = await db.select({ id: phoneNumbers.id }).from(phoneNumbers).where(where).orderBy(asc(phoneNumbers.id)).limit(limit).offset(offset);
    return { ids: rows.map((r) => r.id), total, capped: false };
  }
  const matches = await searchPhoneIds(db, search, SEARCH_COUNT_CAP + 1, log);
  const capped = matches.length > SEARCH_COUNT_CAP;
  const kept: number[] = [];
  for (let i = 0; i < Math.min(matches.length, SEARCH_COUNT_CAP); i += 1000) {
    const chunk = matches.slice(i, Math.min(i + 1000, SEARCH_COUNT_CAP));
    const rows = await db.select({ id: phoneNumbers.id }).from(phoneNumbers).where(and(where, inArray(phoneNumbers.id, chunk)));
    for (const r of rows) kept.push(r.id);
  }
  kept.sort((a, b) => a - b);
  return { ids: kept.slice(offset, offset + limit), total: kept.length, capped };
}
