import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { bonuses, referralCredits, users, withdrawals } from '../db/schema';

type Reader = Db | Tx;

/** Withdrawals in these states are taken out of the balance. */
export const HELD_STATUSES = ['requested', 'accepted'] as const;

export interface MoneySummary {
  userId: number;
  /** Blast income: the member's running total, equal to the sum of their message-log incomes. */
  income: number;
  totalBonus: number;
  totalReferral: number;
  totalRequested: number;
  totalAccepted: number;
  balance: number;
}

const sumInt = (column: SQLWrapper) => sql<number>`coalesce(sum(${column}), 0)`;

export function incomeOf(db: Reader, userId: number): number {
  return db.select({ income: users.income }).from(users).where(eq(users.id, userId)).get()?.income ?? 0;
}

export function totalBonusOf(db: Reader, userId: number): number {
  return db.select({ n: sumInt(bonuses.nominal) }).from(bonuses).where(eq(bonuses.userId, userId)).get()?.n ?? 0;
}

export function totalReferralOf(db: Reader, userId: number): number {
  return (
    db.select({ n: sumInt(referralCredits.amount) }).from(referralCredits).where(eq(referralCredits.referrerId, userId)).get()?.n ??
    0
  );
}

export function totalWithdrawnOf(db: Reader, userId: number, statuses: ReadonlyArray<'requested' | 'accepted' | 'rejected'>): number {
  return (
    db
      .select({ n: sumInt(withdrawals.nominal) })
      .from(withdrawals)
      .where(and(eq(withdrawals.userId, userId), inArray(withdrawals.status, [...statuses])))
      .get()?.n ?? 0
  );
}

/**
 * The one balance formula: income + bonuses + referral credits − withdrawals that are requested or
 * accepted. Integer rupiah. Call it inside the transaction that changes money.
 */
export function balanceOf(db: Reader, userId: number): number {
  return incomeOf(db, userId) + totalBonusOf(db, userId) + totalReferralOf(db, userId) - totalWithdrawnOf(db, userId, HELD_STATUSES);
}

/** Every figure of the withdraw card at once, consistent with each other. */
export function moneySummary(db: Reader, userId: number): MoneySummary {
  const income = incomeOf(db, userId);
  const totalBonus = totalBonusOf(db, userId);
  const totalReferral = totalReferralOf(db, userId);
  const totalRequested = totalWithdrawnOf(db, userId, ['requested']);
  const totalAccepted = totalWithdrawnOf(db, userId, ['accepted']);
  return {
    userId,
    income,
    totalBonus,
    totalReferral,
    totalRequested,
    totalAccepted,
    balance: income + totalBonus + totalReferral - totalRequested - totalAccepted,
  };
}
