import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { messageLogs } from '../../server/src/db/schema';
import { startOfToday } from '../../server/src/messagelog/service';
import { dailyCounts } from '../../server/src/messagelog/daily';

let t: TestApp;
let member: TestUser;
let other: TestUser;
let admin: TestUser;
let dev: TestUser;

const DAY = 24 * 60 * 60 * 1000;
/** The WIB calendar date `daysAgo` days before today, written independently of the service. */
const wibDate = (daysAgo: number) => new Date(Date.now() + 7 * 60 * 60 * 1000 - daysAgo * DAY).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await startTestApp();
  [member, other, admin, dev] = await Promise.all([t.user('member'), t.user('member'), t.user('admin'), t.user('dev')]);
  const today = startOfToday().getTime();
  const log = (userId: number, success: boolean, at: number) => ({ userId, number: '6281200000000', success, income: 0, createdAt: new Date(at) });
  await t.ctx.db
    .insert(messageLogs)
    .values([
      log(member.id, true, today),
      log(member.id, true, today),
      log(member.id, false, today),
      log(member.id, true, today - 1), // one millisecond before midnight WIB: yesterday
      log(member.id, false, today - 2 * DAY - 1), // three days ago
      log(member.id, true, today - 19 * DAY - 1), // twenty days ago, outside the 14
      log(other.id, true, today),
    ]);
});
afterAll(() => t.close());

const daily = (u: TestUser, query: string) => t.http.get(`/api/admin/messagelog/daily${query}`).set(u.auth);

describe('GET /admin/messagelog/daily', () => {
  it('answers a member their own sends per WIB day, oldest first, missing days as zeros', async () => {
    const res = await daily(member, '?days=14');
    expect(res.status).toBe(200);
    const days = res.body.data as Array<{ date: string; success: number; fail: number }>;
    expect(days).toHaveLength(14);
    expect(days.map((d) => d.date)).toEqual(Array.from({ length: 14 }, (_, i) => wibDate(13 - i)));
    expect(days[13]).toEqual({ date: wibDate(0), success: 2, fail: 1, delivered: 0, read: 0 });
    expect(days[12]).toEqual({ date: wibDate(1), success: 1, fail: 0, delivered: 0, read: 0 });
    expect(days[10]).toEqual({ date: wibDate(3), success: 0, fail: 1, delivered: 0, read: 0 });
    const others = days.filter((_, i) => ![10, 12, 13].includes(i));
    expect(others.every((d) => d.success === 0 && d.fail === 0)).toBe(true);
  });

  it('a member gets only their own whatever userId says', async () => {
    const mine = await daily(member, `?days=14&userId=${other.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.data[13]).toEqual({ date: wibDate(0), success: 2, fail: 1, delivered: 0, read: 0 });
    const theirs = await daily(other, `?days=14&userId=${member.id}`);
    expect(theirs.body.data[13]).toEqual({ date: wibDate(0), success: 1, fail: 0, delivered: 0, read: 0 });
    expect(theirs.body.data[12]).toEqual({ date: wibDate(1), success: 0, fail: 0, delivered: 0, read: 0 });
  });

  it('admin and dev get everyone, or one user with userId', async () => {
    for (const u of [admin, dev]) {
      const all = await daily(u, '?days=14');
      expect(all.body.data[13]).toEqual({ date: wibDate(0), success: 3, fail: 1, delivered: 0, read: 0 });
      expect(all.body.data[12]).toEqual({ date: wibDate(1), success: 1, fail: 0, delivered: 0, read: 0 });
      const one = await daily(u, `?days=14&userId=${other.id}`);
      expect(one.body.data[13]).toEqual({ date: wibDate(0), success: 1, fail: 0, delivered: 0, read: 0 });
      expect(one.body.data.slice(0, 13).every((d: { success: number; fail: number }) => d.success + d.fail === 0)).toBe(true);
    }
  });

  it('defaults to 14 days and reaches further back when asked', async () => {
    expect((await daily(member, '')).body.data).toHaveLength(14);
    const month = await daily(member, '?days=30');
    expect(month.body.data).toHaveLength(30);
    expect(month.body.data[9]).toEqual({ date: wibDate(20), success: 1, fail: 0, delivered: 0, read: 0 });
    expect((await daily(member, '?days=1')).body.data).toEqual([{ date: wibDate(0), success: 2, fail: 1, delivered: 0, read: 0 }]);
    expect((await daily(member, '?days=90')).body.data).toHaveLength(90);
  });

  it('refuses days outside 1–90 or not a whole number with a clear 422', async () => {
    for (const bad of ['0', '91', '-3', '1.5', 'abc', '100000']) {
      const res = await daily(admin, `?days=${bad}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.msg).toBe('days harus bilangan bulat 1–90.');
      expect(res.body.errors).toEqual({ days: 'days harus bilangan bulat 1–90.' });
    }
    expect((await daily(admin, '?days=14&userId=x')).status).toBe(422);
  });

  it('is for members, admin and dev; staff and visitors are refused', async () => {
    const staff = await t.user('staff');
    expect((await daily(staff, '?days=14')).status).toBe(403);
    expect((await t.http.get('/api/admin/messagelog/daily?days=14')).status).toBe(401);
  });

  it('cuts days at midnight WIB, whatever the server time zone', async () => {
    const caller = { id: admin.id, role: 'admin' as const, firstname: 'A', lastname: 'B', email: 'a@b.c', token: admin.token, expiresAt: Date.now() + 60_000 };
    const before = await dailyCounts(t.ctx, caller, { days: 2 }, new Date('2024-05-01T16:59:59Z'));
    expect(before.data.map((d) => d.date)).toEqual(['2024-04-30', '2024-05-01']);
    const after = await dailyCounts(t.ctx, caller, { days: 2 }, new Date('2024-05-01T17:00:00Z'));
    expect(after.data.map((d) => d.date)).toEqual(['2024-05-01', '2024-05-02']);
  });
});
