import { eq, inArray } from 'drizzle-orm';
import { transaction, type Db } from '../db/client';
import { optOuts, phoneNumbers } from '../db/schema';
import { one } from '../db/raw';
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
export async function optOut(db: Db, number: string, reason: string, whatsappId: number | null = null): Promise<OptOutResult> {
  const phone = normalizePhone(number);
  if (!phone.ok) throw new Error(`Cannot opt out "${number}": ${phone.message}`);
  return transaction(db, async (tx) => {
    const inserted = await tx
      .insert(optOuts)
      .values({ number: phone.number, reason: reason.slice(0, 200) || 'opted out', whatsappId })
      .onConflictDoNothing({ target: optOuts.number })
      .returning({ id: optOuts.id });
    const [row] = await tx.update(phoneNumbers).set({ status: 'nonactive' }).where(eq(phoneNumbers.number, phone.number)).returning({ id: phoneNumbers.id });
    return { number: phone.number, phoneNumberId: row?.id ?? null, added: inserted.length > 0 };
  });
}

/** The opt-out reason of a number, or null when it is not on the suppression list. */
export async function optOutReason(db: Db, number: string): Promise<string | null> {
  const row = await one(db.select({ reason: optOuts.reason }).from(optOuts).where(eq(optOuts.number, number)).limit(1));
  return row?.reason ?? null;
}

/** Opt-out reasons of several numbers at once (a page of the list). */
export async function optOutReasons(db: Db, numbers: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!numbers.length) return out;
  const rows = await db.select({ number: optOuts.number, reason: optOuts.reason }).from(optOuts).where(inArray(optOuts.number, numbers));
  for (const r of rows) out.set(r.number, r.reason);
  return out;
}
