import type { Db } from '../db/client';
import { normalizePhone } from '../../../common/phone';

export interface OptOutResult {
  /** The number as stored. */
  number: string;
  /** The phone-number row made nonactive, when the number is in the list. */
  phoneNumberId: number | null;
  /** False when the number was already on the suppression list (its first reason is kept). */
  added: boolean;
}

/**
 * Puts a number on the suppression list and makes its phone-number row nonactive, in one
 * transaction. It is never messaged again: imports skip it, and an edit cannot re-activate it.
 * Accepts any written form of the number (`0812…`, `+62 812…`); throws on one that is not a number.
 */
export function optOut(db: Db, number: string, reason: string, whatsappId: number | null = null): OptOutResult {
  const phone = normalizePhone(number);
  if (!phone.ok) throw new Error(`Cannot opt out "${number}": ${phone.message}`);
  const c = db.$client;
  return c.transaction(() => {
    const added = c
      .prepare('INSERT INTO opt_outs (number, reason, whatsapp_id) VALUES (?, ?, ?) ON CONFLICT (number) DO NOTHING')
      .run(phone.number, reason.slice(0, 200) || 'opted out', whatsappId).changes > 0;
    const row = c.prepare("UPDATE phone_numbers SET status = 'nonactive' WHERE number = ? RETURNING id").get(phone.number) as { id: number } | undefined;
    return { number: phone.number, phoneNumberId: row?.id ?? null, added };
  })();
}

/** The opt-out reason of a number, or null when it is not on the suppression list. */
export function optOutReason(db: Db, number: string): string | null {
  const row = db.$client.prepare('SELECT reason FROM opt_outs WHERE number = ?').get(number) as { reason: string } | undefined;
  return row?.reason ?? null;
}

/** Opt-out reasons of several numbers at once (a page of the list). */
export function optOutReasons(db: Db, numbers: string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (!numbers.length) return out;
  const rows = db.$client.prepare(`SELECT number, reason FROM opt_outs WHERE number IN (${numbers.map(() => '?').join(',')})`).all(...numbers) as Array<{
    number: string;
    reason: string;
  }>;
  for (const r of rows) out.set(r.number, r.reason);
  return out;
}
