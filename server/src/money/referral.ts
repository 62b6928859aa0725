import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { one } from '../db/raw';
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
 * with the income that caused it. Returns the credit, or null when nothing is owed (no referrer, a
 * referrer who is not a member, no income, a percent of 0 or a share that rounds down to 0).
 */
export async function creditReferral(tx: Db | Tx, memberId: number, income: number, messageLogId: number | null): Promise<ReferralCredit | null> {
  const member = await one(tx.select({ referredBy: users.referredBy }).from(users).where(eq(users.id, memberId)).limit(1));
  const referrerId = member?.referredBy ?? null;
  if (referrerId === null || referrerId === memberId) return null;
  // Referral rewards are a member's: an account made staff (or removed) earns nothing more from its referrals.
  const referrer = await one(tx.select({ id: users.id }).from(users).where(and(eq(users.id, referrerId), eq(users.role, 'member'))).limit(1));
  if (!referrer) return null;
  const amount = referralAmount(income, (await getSettings(tx)).referralPercent);
  if (amount <= 0) return null;
  const [row] = await tx.insert(referralCredits).values({ referrerId, referredId: memberId, messageLogId, amount }).returning({ id: referralCredits.id });
  return { id: row!.id, referrerId, referredId: memberId, amount };
}
