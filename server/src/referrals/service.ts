import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { one } from '../db/raw';
import { referralCredits, users } from '../db/schema';
import { paged, pageWindow } from '../lib/paging';
import { totalReferralOf } from '../money/balance';

/**
 * The members a user referred, each with the sum credited to the referrer from them (0 when they
 * have not earned yet), and the referrer's total credit.
 */
export async function referralsPerPage(ctx: AppContext, referrerId: number, page: number) {
  const where = eq(users.referredBy, referrerId);
  const credited = sql<number | string>`(select coalesce(sum(${referralCredits.amount}), 0) from ${referralCredits}
    where ${and(eq(referralCredits.referrerId, referrerId), eq(referralCredits.referredId, users.id))})`;
  const totalRows = (await one(ctx.db.select({ n: count() }).from(users).where(where)))?.n ?? 0;
  const { limit, offset } = pageWindow(page);
  const found = await ctx.db
    .select({ id: users.id, firstname: users.firstname, lastname: users.lastname, email: users.email, income: credited, createdAt: users.createdAt })
    .from(users)
    .where(where)
    .orderBy(desc(users.id))
    .limit(limit)
    .offset(offset);
  const rows = found.map((r) => ({ ...r, income: Number(r.income) }));
  const answer = paged(rows, totalRows, page);
  return { list: answer.data, total: await totalReferralOf(ctx.db, referrerId), ...answer };
}
