import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { sql } from 'drizzle-orm';
import { messageLogs } from '../../server/src/db/schema';
import { rawRun } from '../../server/src/db/raw';
import { startOfToday } from '../../server/src/messagelog/service';

let t: TestApp;
let member: TestUser;
let other: TestUser;
let admin: TestUser;
let staff: TestUser;

const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await startTestApp();
  [member, other, admin, staff] = await Promise.all([t.user('member'), t.user('member'), t.user('admin'), t.user('staff')]);
  const today = startOfToday();
  const log = (userId: number, success: boolean, income: number, at: Date) => ({ userId, number: '6281200000000', success, income, createdAt: at });
  await t.ctx.db
    .insert(messageLogs)
    .values([
      log(member.id, true, 50, new Date(today.getTime() + 1000)),
      log(member.id, true, 50, new Date(today.getTime() + 2000)),
      log(member.id, false, 0, new Date(today.getTime() + 3000)),
      log(member.id, true, 75, new Date(today.getTime() - 1000)), // yesterday, one second before midnight WIB
      log(member.id, false, 0, new Date(today.getTime() - 2 * DAY)),
      log(other.id, true, 100, new Date(today.getTime() + 5000)),
    ]);
  // The running totals the blast transaction keeps with every log row.
  await rawRun(
    t.ctx.db,
    sql`UPDATE users SET total_success = (SELECT count(*) FROM message_logs l WHERE l.user_id = users.id AND l.success = 1),
    total_fail = (SELECT count(*) FROM message_logs l WHERE l.user_id = users.id AND l.success = 0)`,
  );
});
afterAll(() => t.close());

describe('message log counts', () => {
  it('the day starts at midnight WIB (UTC+7)', () => {
    expect(startOfToday(new Date('2024-05-01T16:59:59Z')).toISOString()).toBe('2024-04-30T17:00:00.000Z');
    expect(startOfToday(new Date('2024-05-01T17:00:00Z')).toISOString()).toBe('2024-05-01T17:00:00.000Z');
  });

  it('count/{userId}: a member\'s successful and failed sends of all time', async () => {
    const res = await t.http.get(`/api/admin/messagelog/count/${member.id}`).set(member.auth);
    expect(res.body).toEqual({ successCount: 3, failCount: 2 });
    const byAdmin = await t.http.get(`/api/admin/messagelog/count/${other.id}`).set(admin.auth);
    expect(byAdmin.body).toEqual({ successCount: 1, failCount: 0 });
  });

  it('today-income/{userId}: only today\'s earnings', async () => {
    const res = await t.http.get(`/api/admin/messagelog/today-income/${member.id}`).set(member.auth);
    expect(res.body).toEqual({ income: 100 });
  });

  it('today-count and total-count: every member, by outcome', async () => {
    expect((await t.http.get('/api/admin/messagelog/today-count').set(admin.auth)).body).toEqual({ success: 3, fail: 1, delivered: 0, read: 0 });
    expect((await t.http.get('/api/admin/messagelog/total-count').set(admin.auth)).body).toEqual({ success: 4, fail: 2 });
  });

  it('a member never reads another member\'s figures; staff and members cannot read the totals', async () => {
    for (const path of [`count/${member.id}`, `today-income/${member.id}`]) {
      const res = await t.http.get(`/api/admin/messagelog/${path}`).set(other.auth);
      expect(res.status).toBe(403);
      expect(res.body).not.toHaveProperty('income');
      expect(res.body).not.toHaveProperty('successCount');
    }
    expect((await t.http.get('/api/admin/messagelog/today-count').set(member.auth)).status).toBe(403);
    expect((await t.http.get('/api/admin/messagelog/total-count').set(staff.auth)).status).toBe(403);
  });
});
