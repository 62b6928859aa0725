import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { one, rawGet } from '../db/raw';
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

/** The parts of the balance of one user, as SQL scalars. */
const parts = (userId: number) => ({
  income: sql`coalesce((select ${users.income} from ${users} where ${users.id} = ${userId}), 0)`,
  bonus: sql`(select coalesce(sum(${bonuses.nominal}), 0) from ${bonuses} where ${bonuses.userId} = ${userId})`,
  referral: sql`(select coalesce(sum(${referralCredits.amount}), 0) from ${referralCredits} where ${referralCredits.referrerId} = ${userId})`,
  withdrawn: (statuses: SQLWrapper) =>
    sql`(select coalesce(sum(${withdrawals.nominal}), 0) from ${withdrawals} where ${withdrawals.userId} = ${userId} and ${withdrawals.status} in ${statuses})`,
});

/** income + bonuses + referral credits − withdrawals that are requested or accepted. */
const balanceSql = (userId: number) => {
  const p = parts(userId);
  return sql`${p.income} + ${p.bonus} + ${p.referral} - ${p.withdrawn(sql`('requested', 'accepted')`)}`;
};

/** An integer SQL value as text: the driver never turns it into a float on the way. */
const asText = (value: SQLWrapper) => sql`cast(${value} as text)`;

/**
 * The one balance formula: income + bonuses + referral credits − withdrawals that are requested or
 * accepted. Integer rupiah, summed by the database in integers and read as text into a BigInt, so
 * no step passes through a float. Call it inside the transaction that changes money.
 */
export async function balanceBigOf(db: Reader, userId: number): Promise<bigint> {
  const row = await rawGet<{ balance: string | number | null }>(db as Db, sql`select ${asText(balanceSql(userId))} as balance`);
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
  const p = parts(userId);
  const row = await rawGet<Record<'income' | 'bonus' | 'referral' | 'requested' | 'accepted' | 'balance', string | number | null>>(
    db as Db,
    sql`select ${asText(p.income)} as income, ${asText(p.bonus)} as bonus, ${asText(p.referral)} as referral,
      ${asText(p.withdrawn(sql`('requested')`))} as requested, ${asText(p.withdrawn(sql`('accepted')`))} as accepted,
      ${asText(balanceSql(userId))} as balance`,
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
