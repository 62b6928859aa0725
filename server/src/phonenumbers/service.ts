import type { Writable } from 'node:stream';
import { and, asc, eq, gt, inArray, ne } from 'drizzle-orm';
import type { AppContext } from '../context';
import { transaction, type Db } from '../db/client';
import { optOuts, phoneNumbers } from '../db/schema';
import { changes, one } from '../db/raw';
import { normalizePhone, type LineType, type PhoneResult } from '../../../common/phone';
import { readStoredNumber } from './renormalize';
import { HttpError } from '../lib/errors';
import { paged, pageWindow } from '../lib/paging';
import { streamRows } from '../lib/csv';
import { phoneSearchText } from '../../../common/phone';
import { optOutReason } from './optout';
import { rememberRemoved, takeRemoved } from './removed';
import { pageIds, phoneNumberTotal } from './search';
import { phoneListFigures } from './counters';
import { pageIdsOfLineType, type LineTypeFilter } from './line-type';
import { pageIdsOfSendState, type SendStateFilter } from './send-state';
import { defaultCountry } from '../settings/service';
import { rowView, type PhoneNumberRow, type PhoneNumberView } from './view';
import type { PhoneNumberSaveInput, PhoneNumberUpdateInput } from './schema';

/** The rows of `ids` in that order, each with its opt-out reason (one statement). */
async function rowsByIds(db: Db, ids: number[]): Promise<PhoneNumberView[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ row: phoneNumbers, reason: optOuts.reason })
    .from(phoneNumbers)
    .leftJoin(optOuts, eq(optOuts.number, phoneNumbers.number))
    .where(inArray(phoneNumbers.id, ids));
  const byId = new Map(rows.map((r) => [r.row.id, r]));
  return ids.flatMap((id) => {
    const found = byId.get(id);
    return found ? [rowView(found.row, found.reason ?? null)] : [];
  });
}

/** The search text of a list call; the default country is read only when there is a search. */
async function searchText(db: Db, search: string): Promise<string> {
  return search.trim() ? phoneSearchText(search, await defaultCountry(db)) : '';
}

/** One page of the list (10 rows), optionally searched by a number fragment or a name. */
export async function phoneNumbersPerPage(ctx: AppContext, page: number, search: string, lineType: LineTypeFilter | '' = '', sendState: SendStateFilter | '' = '') {
  const { limit, offset } = pageWindow(page);
  const text = await searchText(ctx.db, search);
  const { ids, total, capped } = sendState
    ? await pageIdsOfSendState(ctx.db, sendState, lineType, text, offset, limit, ctx.log)
    : lineType
      ? await pageIdsOfLineType(ctx.db, lineType, text, offset, limit, ctx.log)
      : await pageIds(ctx.db, text, offset, limit, ctx.log);
  const result = paged(await rowsByIds(ctx.db, ids), total, page);
  return { ...result, meta: { ...result.meta, capped } };
}

/** The list without paging, for pickers: at most LIST_LIMIT rows (the export has them all). */
export const LIST_LIMIT = 1000;
export async function phoneNumberList(ctx: AppContext, search: string) {
  const { ids, total } = await pageIds(ctx.db, await searchText(ctx.db, search), 0, LIST_LIMIT, ctx.log);
  return { list: await rowsByIds(ctx.db, ids), total, truncated: total > ids.length };
}

async function rowById(db: Db, id: number): Promise<PhoneNumberRow> {
  const row = await one(db.select().from(phoneNumbers).where(eq(phoneNumbers.id, id)).limit(1));
  if (!row) throw new HttpError(404, 'Phone number not found');
  return row;
}

export async function phoneNumberById(ctx: AppContext, id: number) {
  const row = await rowById(ctx.db, id);
  return { phoneNumber: rowView(row, await optOutReason(ctx.db, row.number)) };
}

const PLAN_TYPES = new Set(['mobile', 'fixed_line', 'other']);

/**
 * The number to store, by the numbering plan. An edit that sends the stored number back unchanged keeps
 * it when the plan already classified it; a row the re-normalisation marked is read again as a stored
 * number (so a duplicate answers 409 and an invalid one 422 until the number is corrected).
 */
function validNumber(country: string, input: string, current?: PhoneNumberRow): { number: string; lineType: LineType } {
  let phone: PhoneResult;
  if (current && input.trim() === current.number) {
    const read = PLAN_TYPES.has(current.lineType ?? '') ? null : readStoredNumber(current.number, country);
    phone = read ? { ok: true, ...read } : normalizePhone(`+${current.number}`, country);
  } else phone = normalizePhone(input, country);
  if (!phone.ok) throw new HttpError(422, phone.message, { errors: { number: phone.message } });
  return phone;
}

async function assertFree(db: Db, number: string, exceptId: number | null): Promise<void> {
  const sameNumber = eq(phoneNumbers.number, number);
  const other = await one(
    db
      .select({ id: phoneNumbers.id })
      .from(phoneNumbers)
      .where(exceptId === null ? sameNumber : and(sameNumber, ne(phoneNumbers.id, exceptId)))
      .limit(1),
  );
  if (other) {
    const msg = `Nomor ${number} sudah ada di daftar.`;
    throw new HttpError(409, msg, { errors: { number: msg } });
  }
}

export async function savePhoneNumber(ctx: AppContext, input: PhoneNumberSaveInput) {
  const { number, lineType } = validNumber(await defaultCountry(ctx.db), input.number);
  const id = await transaction(ctx.db, async (tx) => {
    const reason = await optOutReason(tx, number);
    if (reason) {
      const msg = `Nomor ${number} sudah berhenti berlangganan (${reason}) dan tidak bisa didaftarkan lagi.`;
      throw new HttpError(409, msg, { errors: { number: msg } });
    }
    await assertFree(tx, number, null);
    // A concurrent save of the same number may pass the check too (PostgreSQL runs both at once): the
    // unique index decides, and the loser answers as if the check had seen the winner's row.
    const [row] = await tx
      .insert(phoneNumbers)
      .values({ number, name: input.name, lineType, lastSent: await takeRemoved(tx, number) })
      .onConflictDoNothing({ target: phoneNumbers.number })
      .returning({ id: phoneNumbers.id });
    if (!row) {
      const msg = `Nomor ${number} sudah ada di daftar.`;
      throw new HttpError(409, msg, { errors: { number: msg } });
    }
    return row.id;
  });
  return { ...(await phoneNumberById(ctx, id)), msg: 'Nomor berhasil disimpan.' };
}

export async function updatePhoneNumber(ctx: AppContext, id: number, input: PhoneNumberUpdateInput) {
  // The settings are read before the transaction, so it holds the connection for its own work only.
  const country = await defaultCountry(ctx.db);
  await transaction(ctx.db, async (tx) => {
    const current = await rowById(tx, id);
    const { number, lineType } = validNumber(country, input.number, current);
    const reason = await optOutReason(tx, number);
    if (reason && input.status === 'active') {
      const msg = `Nomor ${number} sudah berhenti berlangganan (${reason}) dan tidak bisa diaktifkan lagi.`;
      throw new HttpError(409, msg, { errors: { status: msg } });
    }
    await assertFree(tx, number, id);
    // Another number: the old one's last send is remembered as if deleted, and the row takes the new one's.
    const renumbered = number !== current.number;
    if (renumbered) await rememberRemoved(tx, current.number, current.lastSent);
    // Activated (or renumbered) again, a number that failed for good starts over with fresh attempts.
    const restart = current.failedAt !== null && (input.status === 'active' || renumbered);
    await tx
      .update(phoneNumbers)
      .set({
        number,
        name: input.name,
        status: input.status,
        lineType,
        ...(renumbered ? { lastSent: await takeRemoved(tx, number) } : {}),
        ...(restart ? { failedAt: null, sendAttempts: 0, nextAttemptAt: null } : {}),
      })
      .where(eq(phoneNumbers.id, id));
  });
  return { ...(await phoneNumberById(ctx, id)), msg: 'Nomor berhasil diperbarui.' };
}

export async function deletePhoneNumber(ctx: AppContext, id: number) {
  await transaction(ctx.db, async (tx) => {
    const [row] = await tx.delete(phoneNumbers).where(eq(phoneNumbers.id, id)).returning({ number: phoneNumbers.number, lastSent: phoneNumbers.lastSent });
    if (!row) throw new HttpError(404, 'Phone number not found');
    // Added back later, the number keeps its recipient cooldown.
    await rememberRemoved(tx, row.number, row.lastSent);
  });
  return { id, msg: 'Nomor berhasil dihapus.' };
}

/** Numbers delivered to at least once (blasted) and the rest (unBlasted). */
export async function countBlast(ctx: AppContext) {
  const { total, blasted } = await phoneListFigures(ctx.db);
  return { blasted, unBlasted: total - blasted };
}

export async function phoneNumberCount(ctx: AppContext): Promise<number> {
  return phoneNumberTotal(ctx.db);
}

/** Whether the list has any row (the export's 404), without counting millions of rows. */
export async function hasPhoneNumbers(ctx: AppContext): Promise<boolean> {
  return (await one(ctx.db.select({ id: phoneNumbers.id }).from(phoneNumbers).limit(1))) !== undefined;
}

interface ExportRow {
  id: number;
  number: string;
  name: string;
  status: string;
}

/** The whole list as phone_numbers.csv / .json (number, name, status), streamed page by page. */
export async function exportPhoneNumbers(ctx: AppContext, out: Writable, format: 'csv' | 'json'): Promise<void> {
  const columns = { id: phoneNumbers.id, number: phoneNumbers.number, name: phoneNumbers.name, status: phoneNumbers.status };
  await streamRows<ExportRow>(
    out,
    format,
    {
      header: ['number', 'name', 'status'],
      cells: (r) => [r.number, r.name, r.status],
      json: (r) => ({ number: r.number, name: r.name, status: r.status }),
    },
    async (after) => {
      const rows = await ctx.db.select(columns).from(phoneNumbers).where(gt(phoneNumbers.id, after)).orderBy(asc(phoneNumbers.id)).limit(1000);
      return rows.length ? { rows, lastKey: rows[rows.length - 1]!.id } : null;
    },
  );
}
