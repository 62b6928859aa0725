import { z } from 'zod';
import type { Db } from '../db/client';
import { SEARCH_COUNT_CAP, type IdPage } from './search';

/** The line types the list can filter on: the plan's three, and the two marks of the re-normalisation. */
export const LINE_TYPE_FILTERS = ['mobile', 'fixed_line', 'other', 'invalid', 'duplicate'] as const;
export type LineTypeFilter = (typeof LINE_TYPE_FILTERS)[number];

/** `?line_type=`: empty for all, else one of the filters (422 otherwise). */
export const lineTypeParam = z
  .union([z.string(), z.undefined(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')).trim())
  .pipe(z.union([z.literal(''), z.enum(LINE_TYPE_FILTERS, { message: `line_type harus salah satu dari ${LINE_TYPE_FILTERS.join(', ')}.` })]));

const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * Ids of one page of the numbers of one line type, in id order, through the line-type index; with a
 * search text too, a bounded scan of that type (counted up to the search cap, as searches are).
 */
export function pageIdsOfLineType(db: Db, lineType: LineTypeFilter, search: string, offset: number, limit: number): IdPage {
  const c = db.$client;
  if (!search) {
    const total = (c.prepare('SELECT count(*) AS n FROM phone_numbers WHERE line_type = ?').get(lineType) as { n: number }).n;
    const rows = c.prepare('SELECT id FROM phone_numbers WHERE line_type = ? ORDER BY id LIMIT ? OFFSET ?').all(lineType, limit, offset) as Array<{ id: number }>;
    return { ids: rows.map((r) => r.id), total, capped: false };
  }
  const where = "line_type = @lineType AND (number LIKE @like ESCAPE '\\' OR name LIKE @like ESCAPE '\\')";
  const params = { lineType, like: likeOf(search) };
  const n = (c.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM phone_numbers WHERE ${where} LIMIT ${SEARCH_COUNT_CAP + 1})`).get(params) as { n: number }).n;
  const rows = c.prepare(`SELECT id FROM phone_numbers WHERE ${where} ORDER BY id LIMIT @limit OFFSET @offset`).all({ ...params, limit, offset }) as Array<{ id: number }>;
  return { ids: rows.map((r) => r.id), total: Math.min(n, SEARCH_COUNT_CAP), capped: n > SEARCH_COUNT_CAP };
}
