import { z } from 'zod';
import type { AppContext } from '../context';
import { isStaffOrAbove, type AuthUser } from '../auth/middleware';
import { DAY_MS, dayFigures, wibDay } from './service';
import { decimal } from '../lib/ids';

export const MAX_DAYS = 90;
const DAYS_MSG = `days harus bilangan bulat 1–${MAX_DAYS}.`;

const oneValue = (v: unknown) => (Array.isArray(v) ? v[0] : v);

export const DailyQuery = z.object({
  days: z.preprocess(
    (v) => {
      const raw = oneValue(v);
      return raw === undefined || raw === '' ? 14 : decimal(raw);
    },
    z.number({ message: DAYS_MSG }).int(DAYS_MSG).min(1, DAYS_MSG).max(MAX_DAYS, DAYS_MSG),
  ),
  userId: z.preprocess(
    (v) => {
      const raw = oneValue(v);
      return raw === undefined || raw === '' ? undefined : decimal(raw);
    },
    z.number({ message: 'userId tidak valid.' }).int('userId tidak valid.').positive('userId tidak valid.').optional(),
  ),
});

export interface DayCount {
  /** The WIB calendar day, YYYY-MM-DD. */
  date: string;
  success: number;
  fail: number;
  /** Of the day's successful sends, those delivered, and those read. */
  delivered: number;
  read: number;
}

const dayLabel = (index: number) => new Date(index * DAY_MS).toISOString().slice(0, 10);

/**
 * GET messagelog/daily: successful and failed sends per WIB day for the last `days` days, oldest
 * first, days without sends as zeros. A member always gets their own; admin and dev get everyone's,
 * or one user's with `userId`. One range read of the maintained message_log_days (at most 90 days ×
 * 16 shards of rows), whatever the size of the log.
 */
export async function dailyCounts(ctx: AppContext, caller: AuthUser, query: z.infer<typeof DailyQuery>, now = new Date()): Promise<{ data: DayCount[] }> {
  const userId = isStaffOrAbove(caller.role) ? (query.userId ?? null) : caller.id;
  const today = wibDay(now.getTime());
  const first = today - query.days + 1;
  const figures = await dayFigures(ctx, userId ?? 0, first, today);
  const data: DayCount[] = [];
  for (let day = first; day <= today; day++) {
    const f = figures.get(day);
    data.push({ date: dayLabel(day), success: f?.success ?? 0, fail: f?.fail ?? 0, delivered: f?.delivered ?? 0, read: f?.read ?? 0 });
  }
  return { data };
}
