import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { one } from '../db/raw';
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

// Sums are numbers on SQLite and numeric strings on PostgreSQL: read them through Number().
const sumInt = (column: SQLWrapper) => sql<number | string>`coalesce(sum(${column}), 0)`;

export async function incomeOf(db: Reader, userId: number): Promise<number> {
  return (await one(db.select({ income: users.income }).from(users).where(eq(users.id, userId)).limit(1)))?.income ?? 0;
}

export async function totalBonusOf(db: Reader, userId: number): Promise<number> {
  return Number((await one(db.select({ n: sumInt(bonuses.nominal) }).from(bonuses).where(eq(bonuses.userId, userId))))?.n ?? 0);
}

export async function totalReferralOf(db: Reader, userId: number): Promise<number> {
  return Number(
    (await one(db.select({ n: sumInt(referralCredits.amount) }).from(referralCredits).where(eq(referralCredits.referrerId, userId))))?.n ?? 0,
  );
}

export async function totalWithdrawnOf(db: Reader, userId: number, statuses: ReadonlyArray<'requested' | 'accepted' | 'rejected'>): Promise<number> {
  const row = await one(
    db
      .select({ n: sumInt(withdrawals.nominal) })
      .from(withdrawals)
      .where(and(eq(withdrawals.userId, userId), inArray(withdrawals.status, [...statuses]))),
  );
  return Number(row?.n ?? 0);
}

/** The parts of the balance of the user in the row of `users` the query reads, as SQL scalars. */
const parts = {
  income: sql`${users.income}`,
  bonus: sql`(select coalesce(sum(${bonuses.nominal}), 0) from ${bonuses} where ${eq(bonuses.userId, users.id)})`,
  referral: sql`(select coalesce(sum(${referralCredits.amount}), 0) from ${referralCredits} where ${eq(referralCredits.referrerId, users.id)})`,
  withdrawn: (statuses: ReadonlyArray<'requested' | 'accepted'>) =>
    sql`(select coalesce(sum(${withdrawals.nominal}), 0) from ${withdrawals} where ${and(eq(withdrawals.userId, users.id), inArray(withdrawals.status, [...statuses]))})`,
};

/** An integer SQL value as text: the driver never turns it into a float on the way. */
const asText = (value: SQLWrapper) => sql<string | number | null>`cast(${value} as text)`;

/** income + bonuses + referral credits − withdrawals that are requested or accepted. */
const balanceSql = asText(sql`${parts.income} + ${parts.bonus} + ${parts.referral} - ${parts.withdrawn(HELD_STATUSES)}`);

/**
 * The one balance formula: income + bonuses + referral credits − withdrawals that are requested or
 * accepted. Integer rupiah, summed by the database in integers and read as text into a BigInt, so
 * no step passes through a float. Call it inside the transaction that changes money.
 */
export async function balanceBigOf(db: Reader, userId: number): Promise<bigint> {
  const row = await one(db.select({ balance: balanceSql }).from(users).where(eq(users.id, userId)).limit(1));
  return BigInt(String(row?.balance ?? 0));
}

export async function balanceOf(db: Reader, userId: number): Promise<number> {
  return Number(await balanceBigOf(db, userId));
}

/**
 * Every figure of the withdraw card at once, consistent with each other: one statement reads them
 * all, so a change committing meanwhile is either in every figure or in none.
 */
export async function moneySummary(db: Reader, userId: number): Promise<MoneySummary> {
  const row = await one(
    db
      .select({
        income: asText(parts.income),
        bonus: asText(parts.bonus),
        referral: asText(parts.referral),
        requested: asText(parts.withdrawn(['requested'])),
        accepted: asText(parts.withdrawn(['accepted'])),
        balance: balanceSql,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1),
  );
  const figure = (value: string | number | null | undefined) => Number(value ?? 0);
  return {
    userId,
    income: figure(row?.income),
    totalBonus: figure(row?.bonus),
    totalReferral: figure(row?.referral),
    totalRequested: figure(row?.requested),
    totalAccepted: figure(row?.accepted),
    balance: figure(row?.balance),
  };
}
