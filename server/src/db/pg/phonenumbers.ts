import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { rawAll, rawGet } from '../raw';

/**
 * The phone-number list's figures on PostgreSQL (drizzle/pg/0001_phone_list_counters.sql): statement
 * triggers keep every row counted at once, spread over shards that readers sum, so there is nothing to
 * fold; pages seek by blocks of 1,024 ids as on SQLite.
 */
export interface PhoneListFigures {
  total: number;
  active: number;
  blasted: number;
}

const BLOCK_BITS = 10;
export const SLOT_MS = 10_000;

export function storeOpen(db: Db): boolean {
  return (db.$client as unknown as { ended?: boolean }).ended !== true;
}

export async function phoneListFigures(db: Db): Promise<PhoneListFigures> {
  const row = await rawGet<{ total: string | null; active: string | null; blasted: string | null }>(
    db,
    sql`SELECT sum(total) AS total, sum(active) AS active, sum(blasted) AS blasted FROM phone_list_state`,
  );
  return { total: Number(row?.total ?? 0), active: Number(row?.active ?? 0), blasted: Number(row?.blasted ?? 0) };
}

/** Nothing to fold: the triggers count every statement as it commits. */
export async function foldNewRows(_db: Db): Promise<void> {}

export function scheduleFolding(_db: Db): void {}

/**
 * Ids of one page of the whole list in id order, with the exact total: a block seek, then a short scan,
 * in one statement (one snapshot, one round trip).
 */
export async function listPageIds(db: Db, offset: number, limit: number): Promise<{ ids: number[]; total: number }> {
  // The last block whose rows before it are <= offset (window sums over the small blocks table); the
  // page starts at that block's first id, `offset - before` rows in.
  const row = await rawGet<{ total: string | null; ids: number[] | null }>(
    db,
    sql`WITH f AS (SELECT coalesce(sum(total), 0) AS total FROM phone_list_state),
         b AS (SELECT block, before FROM (SELECT block, coalesce(sum(n) OVER (ORDER BY block ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
               FROM phone_id_blocks WHERE n > 0) s WHERE before <= ${offset}::bigint ORDER BY block DESC LIMIT 1)
       SELECT f.total,
         CASE WHEN ${offset}::bigint >= f.total THEN '{}'::int[] ELSE ARRAY(
           SELECT id FROM phone_numbers
           WHERE id >= coalesce((SELECT block FROM b), 0)::bigint * ${2 ** BLOCK_BITS}::bigint
           ORDER BY id LIMIT ${limit}::bigint OFFSET ${offset}::bigint - coalesce((SELECT before FROM b), 0)::bigint) END AS ids
       FROM f`,
  );
  return { ids: (row?.ids ?? []).map(Number), total: Number(row?.total ?? 0) };
}

/** Ids of one page of the numbers of one line type, with their exact total: the type's block sums, then a short seek on (line_type, id). */
export async function typePageIds(db: Db, lineType: string, offset: number, limit: number): Promise<{ ids: number[]; total: number }> {
  const counted = await rawGet<{ n: string | null }>(db, sql`SELECT sum(n) AS n FROM phone_type_blocks WHERE line_type = ${lineType}`);
  const total = Number(counted?.n ?? 0);
  if (offset >= total) return { ids: [], total };
  const block = await rawGet<{ block: number; before: string }>(
    db,
    sql`SELECT block, before FROM (SELECT block, coalesce(sum(n) OVER (ORDER BY block ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
         FROM phone_type_blocks WHERE line_type = ${lineType} AND n > 0) b WHERE before <= ${offset} ORDER BY block DESC LIMIT 1`,
  );
  const fromId = block ? block.block * 2 ** BLOCK_BITS : 0;
  const skip = block ? offset - Number(block.before) : offset;
  const rows = await rawAll<{ id: number }>(
    db,
    sql`SELECT id FROM phone_numbers WHERE line_type = ${lineType} AND id >= ${fromId} ORDER BY line_type, id LIMIT ${limit} OFFSET ${skip}`,
  );
  return { ids: rows.map((r) => r.id), total };
}

/** Active numbers whose last attempt is after `cutoff` (ms): whole slots from the slot table, the partial slot by index. */
export async function activeSentAfter(db: Db, cutoff: number): Promise<number> {
  const slot = Math.floor(cutoff / SLOT_MS);
  const whole = await rawGet<{ n: string | null }>(db, sql`SELECT sum(n) AS n FROM phone_sent_slots WHERE slot > ${slot}`);
  const partial = await rawGet<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM phone_numbers WHERE status = 'active' AND in_use IN (0, 1) AND last_sent > ${cutoff} AND last_sent < ${(slot + 1) * SLOT_MS}`,
  );
  return Number(whole?.n ?? 0) + Number(partial?.n ?? 0);
}
