import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { referralCredits, users } from '../db/schema';
import { paged, pageWindow } from '../lib/paging';
import { totalReferralOf } from '../money/balance';

/**
 * The members a user referred, each with the sum credited to the referrer from them (0 when they
 * have not earned yet), and the referrer's total credit.
 */
export function referralsPerPage(ctx: AppContext, referrerId: number, page: number) {
  const where = eq(users.referredBy, referrerId);
  const credited = sql<number>`(select coalesce(sum(${referralCredits.amount}), 0) from ${referralCredits}
    where ${and(eq(referralCredits.referrerId, referrerId), eq(referralCredits.referredId, users.id))})`;
  const totalRows = ctx.db.select({ n: count() }).from(users).where(where).get()?.n ?? 0;
  const { limit, offset } = pageWindow(page);
  const rows = ctx.db
    .select({ id: users.id, firstname: users.firstname, lastname: users.lastname, email: users.email, income: credited, createdAt: users.createdAt })
    .from(users)
    .where(where)
    .orderBy(desc(users.id))
    .limit(limit)
    .offset(offset)
    .all()
    .map((r) => ({ ...r, income: Number(r.income) }));
  const answer = paged(rows, totalRows, page);
  return { list: answer.data, total: totalReferralOf(ctx.db, referrerId), ...answer };
}
