import type { Writable } from 'node:stream';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { normalizePhone, type LineType, type PhoneResult } from '../../../common/phone';
import { readStoredNumber } from './renormalize';
import { HttpError } from '../lib/errors';
import { paged, pageWindow } from '../lib/paging';
import { streamRows } from '../lib/csv';
import { phoneSearchText } from '../../../common/phone';
import { optOutReason, optOutReasons } from './optout';
import { pageIds, phoneNumberTotal } from './search';
import { phoneListFigures } from './counters';
import { pageIdsOfLineType, type LineTypeFilter } from './line-type';
import { defaultCountry, defaultCountryOf } from '../settings/service';
import { rowView, type PhoneNumberRaw, type PhoneNumberView } from './view';
import type { PhoneNumberSaveInput, PhoneNumberUpdateInput } from './schema';

function rowsByIds(db: Db, ids: number[]): PhoneNumberView[] {
  if (!ids.length) return [];
  const raws = db.$client.prepare(`SELECT * FROM phone_numbers WHERE id IN (${ids.map(() => '?').join(',')})`).all(...ids) as PhoneNumberRaw[];
  const byId = new Map(raws.map((r) => [r.id, r]));
  const reasons = optOutReasons(
    db,
    raws.map((r) => r.number),
  );
  return ids.flatMap((id) => {
    const raw = byId.get(id);
    return raw ? [rowView(raw, reasons.get(raw.number) ?? null)] : [];
  });
}

/** One page of the list (10 rows), optionally searched by a number fragment or a name. */
export async function phoneNumbersPerPage(ctx: AppContext, page: number, search: string, lineType: LineTypeFilter | '' = '') {
  const { limit, offset } = pageWindow(page);
  const text = phoneSearchText(search, await defaultCountry(ctx.db));
  const { ids, total, capped } = lineType ? pageIdsOfLineType(ctx.db, lineType, text, offset, limit) : pageIds(ctx.db, text, offset, limit, ctx.log);
  const result = paged(rowsByIds(ctx.db, ids), total, page);
  return { ...result, meta: { ...result.meta, capped } };
}

/** The list without paging, for pickers: at most LIST_LIMIT rows (the export has them all). */
export const LIST_LIMIT = 1000;
export async function phoneNumberList(ctx: AppContext, search: string) {
  const { ids, total } = pageIds(ctx.db, phoneSearchText(search, await defaultCountry(ctx.db)), 0, LIST_LIMIT, ctx.log);
  return { list: rowsByIds(ctx.db, ids), total, truncated: total > ids.length };
}

function rawById(db: Db, id: number): PhoneNumberRaw {
  const raw = db.$client.prepare('SELECT * FROM phone_numbers WHERE id = ?').get(id) as PhoneNumberRaw | undefined;
  if (!raw) throw new HttpError(404, 'Phone number not found');
  return raw;
}

export function phoneNumberById(ctx: AppContext, id: number) {
  const raw = rawById(ctx.db, id);
  return { phoneNumber: rowView(raw, optOutReason(ctx.db, raw.number)) };
}

const PLAN_TYPES = new Set(['mobile', 'fixed_line', 'other']);

/**
 * The number to store, by the numbering plan. An edit that sends the stored number back unchanged keeps
 * it when the plan already classified it; a row the re-normalisation marked is read again as a stored
 * number (so a duplicate answers 409 and an invalid one 422 until the number is corrected).
 */
function validNumber(db: Db, input: string, current?: PhoneNumberRaw): { number: string; lineType: LineType } {
  const country = defaultCountryOf(db.$client);
  let phone: PhoneResult;
  if (current && input.trim() === current.number) {
    const read = PLAN_TYPES.has(current.line_type ?? '') ? null : readStoredNumber(current.number, country);
    phone = read ? { ok: true, ...read } : normalizePhone(`+${current.number}`, country);
  } else phone = normalizePhone(input, country);
  if (!phone.ok) throw new HttpError(422, phone.message, { errors: { number: phone.message } });
  return phone;
}

function assertFree(db: Db, number: string, exceptId: number | null): void {
  const other = db.$client.prepare('SELECT id FROM phone_numbers WHERE number = ? AND id IS NOT ?').get(number, exceptId) as { id: number } | undefined;
  if (other) {
    const msg = `Nomor ${number} sudah ada di daftar.`;
    throw new HttpError(409, msg, { errors: { number: msg } });
  }
}

export function savePhoneNumber(ctx: AppContext, input: PhoneNumberSaveInput) {
  const { number, lineType } = validNumber(ctx.db, input.number);
  const c = ctx.db.$client;
  const id = c.transaction(() => {
    const reason = optOutReason(ctx.db, number);
    if (reason) {
      const msg = `Nomor ${number} sudah berhenti berlangganan (${reason}) dan tidak bisa didaftarkan lagi.`;
      throw new HttpError(409, msg, { errors: { number: msg } });
    }
    assertFree(ctx.db, number, null);
    return Number(c.prepare('INSERT INTO phone_numbers (number, name, line_type) VALUES (?, ?, ?)').run(number, input.name, lineType).lastInsertRowid);
  })();
  return { ...phoneNumberById(ctx, id), msg: 'Nomor berhasil disimpan.' };
}

export function updatePhoneNumber(ctx: AppContext, id: number, input: PhoneNumberUpdateInput) {
  const c = ctx.db.$client;
  c.transaction(() => {
    const { number, lineType } = validNumber(ctx.db, input.number, rawById(ctx.db, id));
    const reason = optOutReason(ctx.db, number);
    if (reason && input.status === 'active') {
      const msg = `Nomor ${number} sudah berhenti berlangganan (${reason}) dan tidak bisa diaktifkan lagi.`;
      throw new HttpError(409, msg, { errors: { status: msg } });
    }
    assertFree(ctx.db, number, id);
    c.prepare('UPDATE phone_numbers SET number = ?, name = ?, status = ?, line_type = ? WHERE id = ?').run(number, input.name, input.status, lineType, id);
  })();
  return { ...phoneNumberById(ctx, id), msg: 'Nomor berhasil diperbarui.' };
}

export function deletePhoneNumber(ctx: AppContext, id: number) {
  const { changes } = ctx.db.$client.prepare('DELETE FROM phone_numbers WHERE id = ?').run(id);
  if (!changes) throw new HttpError(404, 'Phone number not found');
  return { id, msg: 'Nomor berhasil dihapus.' };
}

/** Numbers delivered to at least once (blasted) and the rest (unBlasted). */
export function countBlast(ctx: AppContext) {
  const { total, blasted } = phoneListFigures(ctx.db);
  return { blasted, unBlasted: total - blasted };
}

export function phoneNumberCount(ctx: AppContext): number {
  return phoneNumberTotal(ctx.db);
}

/** Whether the list has any row (the export's 404), without counting millions of rows. */
export function hasPhoneNumbers(ctx: AppContext): boolean {
  return ctx.db.$client.prepare('SELECT 1 FROM phone_numbers LIMIT 1').get() !== undefined;
}

interface ExportRow {
  id: number;
  number: string;
  name: string;
  status: string;
}

/** The whole list as phone_numbers.csv / .json (number, name, status), streamed page by page. */
export async function exportPhoneNumbers(ctx: AppContext, out: Writable, format: 'csv' | 'json'): Promise<void> {
  const page = ctx.db.$client.prepare('SELECT id, number, name, status FROM phone_numbers WHERE id > ? ORDER BY id LIMIT 1000');
  await streamRows<ExportRow>(
    out,
    format,
    {
      header: ['number', 'name', 'status'],
      cells: (r) => [r.number, r.name, r.status],
      json: (r) => ({ number: r.number, name: r.name, status: r.status }),
    },
    (after) => {
      const rows = page.all(after) as ExportRow[];
      return rows.length ? { rows, lastKey: rows[rows.length - 1]!.id } : null;
    },
  );
}
