import type Database from 'better-sqlite3';
import type { Db } from '../client';
import { gate } from '../gate';

/**
 * Maintained figures of the phone-number list on SQLite (tables and triggers:
 * drizzle/0003_phone_list_counters.sql).
 *
 * Rows up to `counted_upto` are counted and kept exact by triggers on delete and on changes of
 * status, count_success and last_sent. Inserts carry no trigger (it would tax every import row);
 * ids only grow (AUTOINCREMENT), so rows above the mark are exactly the new ones. They are folded in
 * with grouped queries, 50,000 rows a step: by the next read, or in the background after an import.
 *
 * The exported functions are asynchronous: each waits for the connection (./gate) and then runs its
 * synchronous statements to the end.
 */

export interface PhoneListFigures {
  total: number;
  active: number;
  blasted: number;
}

interface StateRow extends PhoneListFigures {
  counted_upto: number;
}

/** Ids per block of phone_id_blocks (`id >> 10`). */
const BLOCK_BITS = 10;
/** Milliseconds per slot of phone_sent_slots. */
export const SLOT_MS = 10_000;

/** The raw better-sqlite3 connection behind a handle (this folder only). */
export const clientOf = (db: Db): Database.Database => (db as unknown as { $client: Database.Database }).$client;

/** Whether the store is still open (background steps stop once it is closed). */
export function storeOpen(db: Db): boolean {
  return clientOf(db).open;
}

function stateRow(c: Database.Database): StateRow {
  return c.prepare('SELECT counted_upto, total, active, blasted FROM phone_list_state WHERE id = 1').get() as StateRow;
}

/** Rows folded per step: a step stays within a few tens of milliseconds even on a busy machine. */
const FOLD_STEP = 50_000;

export function maxPhoneId(c: Database.Database): number {
  return (c.prepare('SELECT coalesce(max(id), 0) AS m FROM phone_numbers').get() as { m: number }).m;
}

/** Folds up to `maxRows` rows inserted since the last fold into the figures; answers whether rows are left. */
function foldStepSync(c: Database.Database, maxRows = FOLD_STEP): boolean {
  if (maxPhoneId(c) <= stateRow(c).counted_upto) return false;
  return c
    .transaction(() => {
      const upto = stateRow(c).counted_upto;
      const last = (c.prepare('SELECT max(id) AS m FROM (SELECT id FROM phone_numbers WHERE id > ? ORDER BY id LIMIT ?)').get(upto, maxRows) as {
        m: number | null;
      }).m;
      if (last === null) return false;
      const blocks = c
        .prepare(
          `SELECT id >> ${BLOCK_BITS} AS block, count(*) AS n, sum(status = 'active') AS active, sum(count_success > 0) AS blasted
           FROM phone_numbers WHERE id > ? AND id <= ? GROUP BY 1`,
        )
        .all(upto, last) as Array<{ block: number; n: number; active: number; blasted: number }>;
      const addBlock = c.prepare('INSERT INTO phone_id_blocks (block, n) VALUES (?, ?) ON CONFLICT (block) DO UPDATE SET n = n + excluded.n');
      const sum = { total: 0, active: 0, blasted: 0 };
      for (const b of blocks) {
        addBlock.run(b.block, b.n);
        sum.total += b.n;
        sum.active += b.active;
        sum.blasted += b.blasted;
      }
      c.prepare(
        `INSERT INTO phone_type_blocks (line_type, block, n)
         SELECT coalesce(line_type, ''), id >> ${BLOCK_BITS}, count(*) FROM phone_numbers WHERE id > ? AND id <= ? GROUP BY 1, 2
         ON CONFLICT (line_type, block) DO UPDATE SET n = n + excluded.n`,
      ).run(upto, last);
      c.prepare(
        `INSERT INTO phone_sent_slots (slot, n)
         SELECT last_sent / ${SLOT_MS}, count(*) FROM phone_numbers
         WHERE id > ? AND id <= ? AND status = 'active' AND last_sent IS NOT NULL GROUP BY 1
         ON CONFLICT (slot) DO UPDATE SET n = n + excluded.n`,
      ).run(upto, last);
      c.prepare('UPDATE phone_list_state SET counted_upto = ?, total = total + ?, active = active + ?, blasted = blasted + ? WHERE id = 1').run(
        last,
        sum.total,
        sum.active,
        sum.blasted,
      );
      return maxPhoneId(c) > last;
    })
    .immediate();
}

/** Folds one bounded step of new rows into the figures; resolves whether rows are left. */
export async function foldStep(db: Db, maxRows = FOLD_STEP): Promise<boolean> {
  while (gate.blocked()) await gate.free();
  return foldStepSync(clientOf(db), maxRows);
}

/** Folds everything now (tests, benchmarks, start-up). */
export async function foldNewRows(db: Db): Promise<void> {
  while (await foldStep(db));
}

const folding = new WeakSet<Db>();

/** Folds the rows of a large import in steps between requests. */
export function scheduleFolding(db: Db): void {
  if (folding.has(db)) return;
  folding.add(db);
  const step = () => {
    foldStep(db)
      .then((more) => {
        if (more && storeOpen(db)) setTimeout(step, 0).unref();
        else folding.delete(db);
      })
      .catch(() => folding.delete(db)); // the next read folds or schedules again
  };
  setTimeout(() => (storeOpen(db) ? step() : folding.delete(db)), 0).unref();
}

/**
 * The figures' state after one bounded fold step. While a large import is still being folded in
 * the background, the rows above the mark are counted directly (exact, and only until it is done).
 */
function current(db: Db): StateRow {
  const c = clientOf(db);
  if (foldStepSync(c)) {
    scheduleFolding(db);
    const s = stateRow(c);
    const tail = c
      .prepare("SELECT count(*) AS total, coalesce(sum(status = 'active'), 0) AS active, coalesce(sum(count_success > 0), 0) AS blasted FROM phone_numbers WHERE id > ?")
      .get(s.counted_upto) as PhoneListFigures;
    return { counted_upto: s.counted_upto, total: s.total + tail.total, active: s.active + tail.active, blasted: s.blasted + tail.blasted };
  }
  return stateRow(c);
}

/** Total, active and blasted (count_success > 0) numbers, exact. */
export async function phoneListFigures(db: Db): Promise<PhoneListFigures> {
  while (gate.blocked()) await gate.free();
  return phoneListFiguresSync(db);
}

/** What cached search answers depend on: rows added, deleted, folded, renumbered or renamed. */
export function listVersion(c: Database.Database): string {
  return (c.prepare('SELECT counted_upto, total, edits FROM phone_list_state WHERE id = 1').raw().get() as number[]).join(':');
}

interface BlockIndex {
  key: string;
  blocks: Float64Array;
  /** Rows before each block (prefix sums). */
  before: Float64Array;
}
const blockIndexes = new WeakMap<Db, BlockIndex>();

function blockIndex(db: Db, state: StateRow): BlockIndex {
  // Blocks change only by a fold (counted_upto moves) or a delete of a counted row (total drops).
  const key = `${state.counted_upto}:${state.total}`;
  const cached = blockIndexes.get(db);
  if (cached?.key === key) return cached;
  const rows = clientOf(db).prepare('SELECT block, n FROM phone_id_blocks WHERE n > 0 ORDER BY block').raw().all() as Array<[number, number]>;
  const index = { key, ...prefixSums(rows) };
  blockIndexes.set(db, index);
  return index;
}

/** Blocks in order with the rows before each (prefix sums), and the rows of them all. */
function prefixSums(rows: Array<[number, number]>): { blocks: Float64Array; before: Float64Array; counted: number } {
  const blocks = new Float64Array(rows.length);
  const before = new Float64Array(rows.length);
  let running = 0;
  rows.forEach(([block, n], i) => {
    blocks[i] = block;
    before[i] = running;
    running += n;
  });
  return { blocks, before, counted: running };
}

/**
 * Where the row at `offset` (0-based, in id order) is: the first id of its block and how many rows
 * of the block come before it, so a page is a seek plus at most 1,023 steps whatever its depth.
 */
function seekOffset(db: Db, offset: number): { fromId: number; skip: number; total: number } {
  const state = current(db);
  const counted = stateRow(clientOf(db));
  if (offset >= counted.total) {
    // Past the counted rows (an import still being folded): seek from the mark.
    return { fromId: counted.counted_upto + 1, skip: offset - counted.total, total: state.total };
  }
  return { ...seekIn(blockIndex(db, counted), offset), total: state.total };
}

/** The first id of the block holding the row at `offset` (of the counted rows) and the rows of it before that row. */
function seekIn({ blocks, before }: { blocks: Float64Array; before: Float64Array }, offset: number): { fromId: number; skip: number } {
  let lo = 0;
  let hi = blocks.length - 1;
  if (hi < 0 || offset <= 0) return { fromId: 0, skip: Math.max(0, offset) };
  // Last block whose rows-before is <= offset.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (before[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { fromId: blocks[lo]! * 2 ** BLOCK_BITS, skip: offset - before[lo]! };
}

/**
 * Ids of one page of the whole list in id order, with the exact total: the page's block of ids comes
 * from the counters, then one short seek (no count or skip over millions of rows).
 */
export async function listPageIds(db: Db, offset: number, limit: number): Promise<{ ids: number[]; total: number }> {
  while (gate.blocked()) await gate.free();
  const { fromId, skip, total } = seekOffset(db, offset);
  if (offset >= total) return { ids: [], total };
  const rows = clientOf(db).prepare('SELECT id FROM phone_numbers WHERE id >= ? ORDER BY id LIMIT ? OFFSET ?').raw().all(fromId, limit, skip) as Array<[number]>;
  return { ids: rows.map((r) => r[0]), total };
}

interface TypeIndex extends BlockIndex {
  /** Counted rows of the type (id <= counted_upto). */
  counted: number;
}
const typeIndexes = new WeakMap<Db, Map<string, TypeIndex>>();

/** Prefix sums of one line type's blocks, rebuilt only when a fold, a delete or a type change moved them. */
function typeIndex(db: Db, lineType: string): TypeIndex {
  const c = clientOf(db);
  const state = c.prepare('SELECT counted_upto, total, type_edits FROM phone_list_state WHERE id = 1').raw().get() as number[];
  const key = state.join(':');
  let byType = typeIndexes.get(db);
  if (!byType) typeIndexes.set(db, (byType = new Map()));
  const cached = byType.get(lineType);
  if (cached?.key === key) return cached;
  const rows = c.prepare('SELECT block, n FROM phone_type_blocks WHERE line_type = ? AND n > 0 ORDER BY block').raw().all(lineType) as Array<[number, number]>;
  const index = { key, ...prefixSums(rows) };
  byType.set(lineType, index);
  return index;
}

/**
 * Ids of one page of the numbers of one line type in id order, with their exact total: the type's
 * block sums give the page's block, then one short seek on the line-type index (its entries are in id
 * order within a type). Rows not folded yet are counted and paged directly, as for the whole list.
 */
export async function typePageIds(db: Db, lineType: string, offset: number, limit: number): Promise<{ ids: number[]; total: number }> {
  while (gate.blocked()) await gate.free();
  const c = clientOf(db);
  current(db);
  const upto = stateRow(c).counted_upto;
  const index = typeIndex(db, lineType);
  const tail =
    maxPhoneId(c) > upto ? (c.prepare('SELECT count(*) AS n FROM phone_numbers WHERE line_type = ? AND id > ?').get(lineType, upto) as { n: number }).n : 0;
  const total = index.counted + tail;
  if (offset >= total) return { ids: [], total };
  // Past the counted rows of the type (rows still to fold): seek from the mark.
  const { fromId, skip } = offset >= index.counted ? { fromId: upto + 1, skip: offset - index.counted } : seekIn(index, offset);
  const rows = c
    .prepare('SELECT id FROM phone_numbers INDEXED BY phone_numbers_line_type_idx WHERE line_type = ? AND id >= ? ORDER BY id LIMIT ? OFFSET ?')
    .raw()
    .all(lineType, fromId, limit, skip) as Array<[number]>;
  return { ids: rows.map((r) => r[0]), total };
}

/**
 * Active numbers whose last attempt is after `cutoff` (ms): whole 10-second slots from the slot
 * table, and the slot the cut-off falls in counted on the target index (two short range seeks).
 */
export async function activeSentAfter(db: Db, cutoff: number): Promise<number> {
  while (gate.blocked()) await gate.free();
  return activeSentAfterSync(db, cutoff);
}

/**
 * Synchronous forms for callers that still run inside synchronous SQLite transactions (the engine's
 * timers and jobs); they read the same figures without waiting for the connection.
 */
export function phoneListFiguresSync(db: Db): PhoneListFigures {
  const { total, active, blasted } = current(db);
  return { total, active, blasted };
}

export function activeSentAfterSync(db: Db, cutoff: number): number {
  const upto = current(db).counted_upto;
  const c = clientOf(db);
  const tail =
    maxPhoneId(c) > upto
      ? (c.prepare("SELECT count(*) AS n FROM phone_numbers WHERE id > ? AND status = 'active' AND last_sent > ?").get(upto, cutoff) as { n: number }).n
      : 0;
  const slot = Math.floor(cutoff / SLOT_MS);
  const whole = (c.prepare('SELECT coalesce(sum(n), 0) AS n FROM phone_sent_slots WHERE slot > ?').get(slot) as { n: number }).n;
  // in_use is 0 or 1 (claim / release), so the seek covers every active row of the partial slot.
  const partial = (
    c
      .prepare(
        `SELECT count(*) AS n FROM phone_numbers INDEXED BY phone_numbers_target_idx
         WHERE status = 'active' AND in_use IN (0, 1) AND last_sent > ? AND last_sent < ? AND id <= ?`,
      )
      .get(cutoff, (slot + 1) * SLOT_MS, upto) as { n: number }
  ).n;
  return whole + partial + tail;
}

/** The opt-out reason of a number, or null (synchronous form, see above). */
export function optOutReasonSync(db: Db, number: string): string | null {
  const row = clientOf(db).prepare('SELECT reason FROM opt_outs WHERE number = ?').get(number) as { reason: string } | undefined;
  return row?.reason ?? null;
}
