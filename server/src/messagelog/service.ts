import { and, count, eq, gte, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { messageLogs } from '../db/schema';
import { isStaffOrAbove, ownUserId, type AuthUser } from '../auth/middleware';

/** The service's day is the Western Indonesia day (WIB, UTC+7, no daylight saving). */
export const DAY_OFFSET_MS = 7 * 60 * 60 * 1000;

/** Midnight WIB of the day `now` falls in. */
export function startOfToday(now: Date = new Date()): Date {
  const day = 24 * 60 * 60 * 1000;
  return new Date(Math.floor((now.getTime() + DAY_OFFSET_MS) / day) * day - DAY_OFFSET_MS);
}

const successes = sql<number>`coalesce(sum(case when ${messageLogs.success} then 1 else 0 end), 0)`;

function outcomeCounts(ctx: AppContext, where: ReturnType<typeof and>) {
  const row = ctx.db.select({ all: count(), success: successes }).from(messageLogs).where(where).get();
  const success = Number(row?.success ?? 0);
  return { success, fail: (row?.all ?? 0) - success };
}

/** Whose figures a member-facing call reads: members only ever their own. */
function scope(caller: AuthUser, userId: number): number {
  return isStaffOrAbove(caller.role) ? userId : ownUserId(caller, userId);
}

/** GET count/{userId}: the member's successful and failed sends, all time. */
export function memberCounts(ctx: AppContext, caller: AuthUser, userId: number) {
  const c = outcomeCounts(ctx, and(eq(messageLogs.userId, scope(caller, userId))));
  return { successCount: c.success, failCount: c.fail };
}

/** GET today-income/{userId}: what the member's sends earned today. */
export function todayIncome(ctx: AppContext, caller: AuthUser, userId: number, now = new Date()) {
  const row = ctx.db
    .select({ income: sql<number>`coalesce(sum(${messageLogs.income}), 0)` })
    .from(messageLogs)
    .where(and(eq(messageLogs.userId, scope(caller, userId)), gte(messageLogs.createdAt, startOfToday(now))))
    .get();
  return { income: Number(row?.income ?? 0) };
}

/** GET today-count: every send today, by outcome. */
export function todayCount(ctx: AppContext, now = new Date()) {
  return outcomeCounts(ctx, and(gte(messageLogs.createdAt, startOfToday(now))));
}

/** GET total-count: every send ever, by outcome. */
export function totalCount(ctx: AppContext) {
  return outcomeCounts(ctx, undefined);
}
