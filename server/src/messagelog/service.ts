import { and, count, eq, gte, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { messageLogs, users } from '../db/schema';
import { one } from '../db/raw';
import { isStaffOrAbove, ownUserId, type AuthUser } from '../auth/middleware';

/** The service's day is the Western Indonesia day (WIB, UTC+7, no daylight saving). */
export const DAY_OFFSET_MS = 7 * 60 * 60 * 1000;

/** Midnight WIB of the day `now` falls in. */
export function startOfToday(now: Date = new Date()): Date {
  const day = 24 * 60 * 60 * 1000;
  return new Date(Math.floor((now.getTime() + DAY_OFFSET_MS) / day) * day - DAY_OFFSET_MS);
}

const successes = sql<number>`coalesce(sum(case when ${messageLogs.success} = 1 then 1 else 0 end), 0)`;

async function outcomeCounts(ctx: AppContext, where: ReturnType<typeof and>) {
  const row = await one(ctx.db.select({ all: count(), success: successes }).from(messageLogs).where(where));
  const success = Number(row?.success ?? 0);
  return { success, fail: Number(row?.all ?? 0) - success };
}

/** Whose figures a member-facing call reads: members only ever their own. */
function scope(caller: AuthUser, userId: number): number {
  return isStaffOrAbove(caller.role) ? userId : ownUserId(caller, userId);
}

/**
 * GET count/{userId}: the member's successful and failed sends, all time. Read from the member's
 * running totals, which the blast transaction keeps equal to their log rows (no count over the log).
 */
export async function memberCounts(ctx: AppContext, caller: AuthUser, userId: number) {
  const row = await one(ctx.db.select({ success: users.totalSuccess, fail: users.totalFail }).from(users).where(eq(users.id, scope(caller, userId))).limit(1));
  return { successCount: row?.success ?? 0, failCount: row?.fail ?? 0 };
}

/** GET today-income/{userId}: what the member's sends earned today. */
export async function todayIncome(ctx: AppContext, caller: AuthUser, userId: number, now = new Date()) {
  const row = await one(
    ctx.db
      .select({ income: sql<number>`coalesce(sum(${messageLogs.income}), 0)` })
    .from(messageLogs)
      .where(and(eq(messageLogs.userId, scope(caller, userId)), gte(messageLogs.createdAt, startOfToday(now)))),
  );
  return { income: Number(row?.income ?? 0) };
}

/** GET today-count: every send today, by outcome. */
export async function todayCount(ctx: AppContext, now = new Date()) {
  return outcomeCounts(ctx, and(gte(messageLogs.createdAt, startOfToday(now))));
}

/** GET total-count: every send ever, by outcome: the sum of the members' running totals (users are never deleted). */
export async function totalCount(ctx: AppContext) {
  const row = await one(
    ctx.db.select({ success: sql<number>`coalesce(sum(${users.totalSuccess}), 0)`, fail: sql<number>`coalesce(sum(${users.totalFail}), 0)` }).from(users),
  );
  return { success: Number(row?.success ?? 0), fail: Number(row?.fail ?? 0) };
}
