import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { users } from '../db/schema';
import { one, rawAll, rawGet } from '../db/raw';
import { isStaffOrAbove, ownUserId, type AuthUser } from '../auth/middleware';

/** The service's day is the Western Indonesia day (WIB, UTC+7, no daylight saving). */
export const DAY_OFFSET_MS = 7 * 60 * 60 * 1000;

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The WIB day number of a moment: days since 1970-01-01 WIB (the `day` of message_log_days). */
export const wibDay = (ms: number) => Math.floor((ms + DAY_OFFSET_MS) / DAY_MS);

/** Midnight WIB of the day `now` falls in. */
export function startOfToday(now: Date = new Date()): Date {
  return new Date(wibDay(now.getTime()) * DAY_MS - DAY_OFFSET_MS);
}

export interface DayFigures {
  success: number;
  fail: number;
  income: number;
  /** Sends of the day that reached the phone ('delivered' or 'read'), and those read. */
  delivered: number;
  read: number;
}

/**
 * Sends and income per WIB day from `first` to `last` for one member, or everyone (userId 0), read
 * from the maintained message_log_days (a few rows per day: one per shard), never from the log.
 */
export async function dayFigures(ctx: AppContext, userId: number, first: number, last: number): Promise<Map<number, DayFigures>> {
  const rows = await rawAll<{ day: number; success: number | string; fail: number | string; income: number | string; delivered: number | string; read: number | string }>(
    ctx.db,
    sql`SELECT day, sum(success) AS success, sum(fail) AS fail, sum(income) AS income, sum(delivered) AS delivered, sum(read) AS read
        FROM message_log_days WHERE user_id = ${userId} AND day >= ${first} AND day <= ${last} GROUP BY day`,
  );
  return new Map(
    rows.map((r) => [
      Number(r.day),
      { success: Number(r.success), fail: Number(r.fail), income: Number(r.income), delivered: Number(r.delivered), read: Number(r.read) },
    ]),
  );
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

/** GET today-income/{userId}: what the member's sends earned today (their row of message_log_days). */
export async function todayIncome(ctx: AppContext, caller: AuthUser, userId: number, now = new Date()) {
  const day = wibDay(now.getTime());
  const figures = (await dayFigures(ctx, scope(caller, userId), day, day)).get(day);
  return { income: figures?.income ?? 0 };
}

/**
 * GET today-count: every send today, by outcome (everyone's row of message_log_days): successful and failed,
 * and of the successful ones those delivered and read (Cloud API statuses, the simulator's reports).
 */
export async function todayCount(ctx: AppContext, now = new Date()) {
  const day = wibDay(now.getTime());
  const figures = (await dayFigures(ctx, 0, day, day)).get(day);
  return { success: figures?.success ?? 0, fail: figures?.fail ?? 0, delivered: figures?.delivered ?? 0, read: figures?.read ?? 0 };
}

/** One account's sends of one WIB day: sent (accepted), delivered, read and failed. */
export interface AccountDay {
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

export const NO_SENDS: AccountDay = { sent: 0, delivered: 0, read: 0, failed: 0 };

/**
 * Today's (WIB) figures of the given accounts, from the maintained whatsapp_days (one row per account
 * and day, by primary key): accounts without a send today are absent (NO_SENDS).
 */
export async function accountsToday(ctx: Pick<AppContext, 'db'>, ids: readonly number[], now = new Date()): Promise<Map<number, AccountDay>> {
  if (!ids.length) return new Map();
  const day = wibDay(now.getTime());
  const rows = await rawAll<{ whatsapp_id: number | string; success: number | string; fail: number | string; delivered: number | string; read: number | string }>(
    ctx.db,
    sql`SELECT whatsapp_id, success, fail, delivered, read FROM whatsapp_days WHERE day = ${day} AND whatsapp_id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return new Map(rows.map((r) => [Number(r.whatsapp_id), { sent: Number(r.success), delivered: Number(r.delivered), read: Number(r.read), failed: Number(r.fail) }]));
}

/**
 * GET total-count: every send ever, by outcome: everyone's rows of message_log_days (one per day and
 * shard), which the triggers keep equal to the log, as the members' running totals are.
 */
export async function totalCount(ctx: AppContext) {
  const row = await rawGet<{ success: number | string | null; fail: number | string | null }>(
    ctx.db,
    sql`SELECT sum(success) AS success, sum(fail) AS fail FROM message_log_days WHERE user_id = 0`,
  );
  return { success: Number(row?.success ?? 0), fail: Number(row?.fail ?? 0) };
}
