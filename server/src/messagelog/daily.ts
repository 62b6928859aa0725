import { z } from 'zod';
import type { AppContext } from '../context';
import { isStaffOrAbove, type AuthUser } from '../auth/middleware';
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
 * or one user's with `userId`.
 */
export function dailyCounts(ctx: AppContext, caller: AuthUser, query: z.infer<typeof DailyQuery>, now = new Date()): { data: DayCount[] } {
  const userId = isStaffOrAbove(caller.role) ? (query.userId ?? null) : caller.id;
  const today = dayIndex(now.getTime());
  const first = today - query.days + 1;
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new Map()));
  const key = (day: number) => `${userId ?? 'all'}:${day}`;

  let from = today;
  for (let day = first; day < today; day++) {
    if (!cache.has(key(day))) {
      from = day;
      break;
    }
  }
  const counted = countFrom(ctx, userId, from);
  if (cache.size > MAX_CACHED) cache.clear();
  for (let day = from; day < today; day++) cache.set(key(day), counted.get(day) ?? { success: 0, fail: 0 });

  const data: DayCount[] = [];
  for (let day = first; day <= today; day++) {
    const c = day < today ? cache.get(key(day)) : counted.get(day);
    data.push({ date: dayLabel(day), success: c?.success ?? 0, fail: c?.fail ?? 0 });
  }
  return { data };
}

/** Counts per WIB day from the start of day `from` on, with one grouped range scan. */
function countFrom(ctx: AppContext, userId: number | null, from: number): Map<number, Counts> {
  const since = from * DAY_MS - DAY_OFFSET_MS;
  const sql = `SELECT CAST((created_at + ${DAY_OFFSET_MS}) / ${DAY_MS} AS INTEGER) AS day,
      SUM(CASE WHEN success THEN 1 ELSE 0 END) AS success, COUNT(*) AS total
    FROM message_logs WHERE created_at >= ? ${userId === null ? '' : 'AND user_id = ?'} GROUP BY day`;
  const params = userId === null ? [since] : [since, userId];
  const rows = ctx.db.$client.prepare(sql).all(...params) as Array<{ day: number; success: number; total: number }>;
  return new Map(rows.map((r) => [r.day, { success: r.success, fail: r.total - r.success }]));
}
