import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { messageLogs } from '../../server/src/db/schema';
import { startOfToday } from '../../server/src/messagelog/service';
import { dayCounterViolations } from './engine-fixtures';

let t: TestApp;
let admin: TestUser;
let member: TestUser;
let other: TestUser;

const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await startTestApp();
  [admin, member, other] = await Promise.all([t.user('admin'), t.user('member'), t.user('member')]);
});
afterAll(() => t.close());

const log = (userId: number, success: boolean, income: number, at: number) => ({ userId, number: '6281200000001', success, income, createdAt: new Date(at) });
const todayCount = async () => (await t.http.get('/api/admin/messagelog/today-count').set(admin.auth).expect(200)).body;
const todayIncome = async (u: TestUser) => (await t.http.get(`/api/admin/messagelog/today-income/${u.id}`).set(u.auth).expect(200)).body.income;
const yesterday = async (u: TestUser) => (await t.http.get('/api/admin/messagelog/daily?days=2').set(u.auth).expect(200)).body.data[0];

describe('message_log_days', () => {
  it('stays equal to a recount of the log through inserts, outcome changes, deletes and the WIB midnight', async () => {
    const midnight = startOfToday().getTime();
    const inserted = await t.ctx.db
      .insert(messageLogs)
      .values([
        log(member.id, true, 30, midnight), // the first millisecond of today (WIB)
        log(member.id, true, 30, midnight + 1000),
        log(member.id, false, 0, midnight + 2000),
        log(member.id, true, 30, midnight - 1), // the last millisecond of yesterday
        log(other.id, true, 45, midnight + 3000),
        log(other.id, false, 0, midnight - 2 * DAY),
      ])
      .returning({ id: messageLogs.id });
    expect(await dayCounterViolations(t.ctx.db)).toEqual([]);
    expect(await todayCount()).toEqual({ success: 3, fail: 1, delivered: 0, read: 0 });
    expect(await todayIncome(member)).toBe(60);
    expect(await todayIncome(other)).toBe(45);
    expect(await yesterday(member)).toMatchObject({ success: 1, fail: 0 });

    // A Cloud API delivery that failed: the send turns failed and its income is taken back.
    await t.ctx.db.update(messageLogs).set({ success: false, income: 0 }).where(eq(messageLogs.id, inserted[1]!.id));
    expect(await dayCounterViolations(t.ctx.db)).toEqual([]);
    expect(await todayCount()).toEqual({ success: 2, fail: 2, delivered: 0, read: 0 });
    expect(await todayIncome(member)).toBe(30);

    // A delivery status moves delivered and read only; outcome and income stay as they were.
    await t.ctx.db.update(messageLogs).set({ deliveryStatus: 'read' }).where(eq(messageLogs.id, inserted[0]!.id));
    expect(await todayCount()).toEqual({ success: 2, fail: 2, delivered: 1, read: 1 });
    expect(await dayCounterViolations(t.ctx.db)).toEqual([]);

    // Deletes, one of them yesterday's.
    await t.ctx.db.delete(messageLogs).where(inArray(messageLogs.id, [inserted[2]!.id, inserted[3]!.id]));
    expect(await dayCounterViolations(t.ctx.db)).toEqual([]);
    expect(await todayCount()).toEqual({ success: 2, fail: 1, delivered: 1, read: 1 });
    expect(await yesterday(member)).toMatchObject({ success: 0, fail: 0 });

    // Many rows in one statement (as an engine tick writes them), across the midnight.
    await t.ctx.db.insert(messageLogs).values(Array.from({ length: 200 }, (_, i) => log(i % 2 ? member.id : other.id, i % 3 !== 0, i % 3 !== 0 ? 30 : 0, midnight - 100 + i)));
    expect(await dayCounterViolations(t.ctx.db)).toEqual([]);
    const today = await todayCount();
    const recount = await t.ctx.db.select({ success: messageLogs.success, createdAt: messageLogs.createdAt }).from(messageLogs);
    const ofToday = recount.filter((r) => r.createdAt.getTime() >= midnight);
    expect(today).toEqual({ success: ofToday.filter((r) => r.success).length, fail: ofToday.filter((r) => !r.success).length, delivered: 1, read: 1 });
  });
});
