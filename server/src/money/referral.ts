import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { referralCredits, users } from '../db/schema';
import { getSettings } from '../settings/service';

export interface ReferralCredit {
  id: number;
  referrerId: number;
  referredId: number;
  amount: number;
}

/** floor(income × percent / 100) in whole rupiah; 0 for anything not positive. */
export function referralAmount(income: number, percent: number): number {
  if (!Number.isFinite(income) || income <= 0 || percent <= 0) return 0;
  return Math.floor((Math.trunc(income) * Math.trunc(percent)) / 100);
}

/**
 * Credits the referrer of `memberId` with floor(income × referral_percent / 100) for one earning
 * (a message-log row). Runs inside the caller's transaction, so the credit commits or rolls back
 * with the income that caused it. Returns the credit, or null when nothing is owed (no referrer,
 * no income, a percent of 0 or a share that rounds down to 0).
 */
export function creditReferral(tx: Tx, memberId: number, income: number, messageLogId: number | null): ReferralCredit | null {
  const member = tx.select({ referredBy: users.referredBy }).from(users).where(eq(users.id, memberId)).get();
  const referrerId = member?.referredBy ?? null;
  if (referrerId === null || referrerId === memberId) return null;
  const referrer = tx.select({ id: users.id }).from(users).where(eq(users.id, referrerId)).get();
  if (!referrer) return null;
  const amount = referralAmount(income, getSettings(tx).referralPercent);
  if (amount <= 0) return null;
  const row = tx
    .insert(referralCredits)
    .values({ referrerId, referredId: memberId, messageLogId, amount })
    .returning({ id: referralCredits.id })
    .get();
  return { id: row.id, referrerId, referredId: memberId, amount };
}
