import { and, count, eq, gte, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../context';
import { isStaffOrAbove, type AuthUser } from '../auth/middleware';
import { messageLogs } from '../db/schema';
import { one } from '../db/raw';
import { DAY_OFFSET_MS } from './service';

const DAY_MS = 24 * 60 * 60 * 1000;
export const MAX_DAYS = 90;
const DAYS_MSG = `days harus bilangan bulat 1–${MAX_DAYS}.`;
/** Cached past days across every scope; beyond this the cache starts over. */
const MAX_CACHED = 50_000;

const oneValue = (v: unknown) => (Array.isArray(v) ? v[0] : v);

export const DailyQuery = z.object({
  days: z.preprocess(
    (v) => {
      const raw = oneValue(v);
      return raw === undefined || raw === '' ? 14 : Number(raw);
    },
    z.number({ message: DAYS_MSG }).int(DAYS_MSG).min(1, DAYS_MSG).max(MAX_DAYS, DAYS_MSG),
  ),
  userId: z.preprocess(
    (v) => {
      const raw = oneValue(v);
      return raw === undefined || raw === '' ? undefined : Number(raw);
    },
    z.number({ message: 'userId tidak valid.' }).int('userId tidak valid.').positive('userId tidak valid.').optional(),
  ),
});

export interface DayCount {
  /** The WIB calendar day, YYYY-MM-DD. */
  date: string;
  success: number;
  fail: number;
}

type Counts = { success: number; fail: number };

/** Past WIB days never change (logs are only appended, stamped now), so their counts are kept. */
const caches = new WeakMap<AppContext, Map<string, Counts>>();

const dayIndex = (ms: number) => Math.floor((ms + DAY_OFFSET_MS) / DAY_MS);
const dayLabel = (index: number) => new Date(index * DAY_MS).toISOString().slice(0, 10);

/**
 * GET messagelog/daily: successful and failed sends per WIB day for the last `days` days, oldest
 * first, days without sends as zeros. A member always gets their own; admin and dev get everyone's,
 * or one user's with `userId`. Days not cached yet are counted one per event-loop turn, so a large
 * log never holds the server for the whole range at once.
 */
export async function dailyCounts(ctx: AppContext, caller: AuthUser, query: z.infer<typeof DailyQuery>, now = new Date()): Promise<{ data: DayCount[] }> {
  const userId = isStaffOrAbove(caller.role) ? (query.userId ?? null) : caller.id;
  const today = dayIndex(now.getTime());
  const first = today - query.days + 1;
  let cache = caches.get(ctx);
  if (!cache || cache.size > MAX_CACHED) caches.set(ctx, (cache = new Map()));
  const key = (day: number) => `${userId ?? 'all'}:${day}`;

  const counts = new Map<number, Counts>();
  for (let day = first; day < today; day++) {
    let c = cache.get(key(day));
    if (!c) {
      c = await countDay(ctx, userId, day);
      cache.set(key(day), c);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    counts.set(day, c);
  }
  counts.set(today, await countDay(ctx, userId, today));
  const data: DayCount[] = [];
  for (let day = first; day <= today; day++) data.push({ date: dayLabel(day), ...counts.get(day)! });
  return { data };
}

/** One WIB day's sends by outcome: a range seek on the time index (or the user's time index). */
async function countDay(ctx: AppContext, userId: number | null, day: number): Promise<Counts> {
  const from = day * DAY_MS - DAY_OFFSET_MS;
  const inDay = and(gte(messageLogs.createdAt, new Date(from)), lt(messageLogs.createdAt, new Date(from + DAY_MS)));
  const row = await one(
    ctx.db
      .select({ success: sql<number>`coalesce(sum(case when ${messageLogs.success} = 1 then 1 else 0 end), 0)`, total: count() })
      .from(messageLogs)
      .where(userId === null ? inDay : and(inDay, eq(messageLogs.userId, userId))),
  );
  const success = Number(row?.success ?? 0);
  return { success, fail: Number(row?.total ?? 0) - success };
}
