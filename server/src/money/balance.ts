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
 * accepted. Integer rupiah, summed by SQLite in 64-bit integers and read as text into a BigInt, so
 * no step passes through a float. Call it inside the transaction that changes money.
 */
export function balanceBigOf(db: Reader, userId: number): bigint {
  const row = db.get<{ balance: string | null }>(sql`select cast(
      coalesce((select ${users.income} from ${users} where ${users.id} = ${userId}), 0)
    + (select coalesce(sum(${bonuses.nominal}), 0) from ${bonuses} where ${bonuses.userId} = ${userId})
    + (select coalesce(sum(${referralCredits.amount}), 0) from ${referralCredits} where ${referralCredits.referrerId} = ${userId})
    - (select coalesce(sum(${withdrawals.nominal}), 0) from ${withdrawals}
        where ${withdrawals.userId} = ${userId} and ${withdrawals.status} in ('requested', 'accepted'))
    as text) as balance`);
  return BigInt(row?.balance ?? '0');
}

export function balanceOf(db: Reader, userId: number): number {
  return Number(balanceBigOf(db, userId));
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
    balance: Number(balanceBigOf(db, userId)),
  };
}
