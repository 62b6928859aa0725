import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser, SIM } from '../helpers';
import { messageLogs, phoneNumbers } from '../../server/src/db/schema';
import { engineFor } from '../../server/src/engine/engine';
import { indexAll } from '../../server/src/db/phonelist';
import { isTransient, retryDelayMs, retryOutcome } from '../../server/src/engine/retry';
import type { SimulatorGateway } from '../../server/src/gateway/simulator/simulator';
import { eventually, linkByQr, type LinkedAccount } from './whatsapp-fixtures';
import { addTargets, addTemplate, invariantViolations, setRules, startBlast, untilIdle } from './engine-fixtures';

let t: TestApp;
let member: TestUser;
let admin: TestUser;
let account: LinkedAccount;
const PRICE = 75;

/** The simulated network's share of failed sends (timeouts, rate limits, transient failures). */
const network = (rate: number) => {
  (t.ctx.gateway as SimulatorGateway).options.failureRate = rate;
};

async function settingsNow() {
  return (await t.http.get('/api/admin/setting/get').set(admin.auth)).body.setting as Record<string, unknown>;
}

beforeAll(async () => {
  t = await startTestApp({ sim: { seed: 'retries', latencyMs: 0, failureRate: 0 } });
  member = await t.user('member');
  admin = await t.user('admin');
  account = await linkByQr(t, member, { phonenumber: '6281266660002' });
  await addTemplate(t.ctx.db);
  await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, price: PRICE });
  // Waits of 300–600 ms instead of minutes: the policy's shape at a test's pace.
  Object.assign(engineFor(t.ctx).options, { baseMs: 600, maxMs: 600 });
});
beforeEach(async () => {
  network(0);
  await t.ctx.db.delete(phoneNumbers);
  await setRules(t.ctx.db, { maxAttempts: 3, recipientCooldownHours: 24 });
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

describe('retries with a policy', () => {
  it('a transient failure is tried again after its wait and succeeds: two log rows, paid once', async () => {
    const [target] = await addTargets(t, 1);
    const logsBefore = (await t.ctx.db.select().from(messageLogs)).length;
    const incomeBefore = (await t.http.get(`/api/admin/messagelog/today-income/${member.id}`).set(member.auth)).body.income as number;
    network(1);
    await startBlast(t, member, account.id);
    // The first attempt fails and is recorded; the network recovers before the retry is due.
    const first = await eventually(
      () => t.ctx.db.select().from(messageLogs).where(eq(messageLogs.phoneNumberId, target!.id)),
      (rows) => rows.length >= 1,
    );
    network(0);
    expect(first[0]!.success).toBe(false);
    const waiting = (await t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, target!.id)))[0]!;
    expect(waiting).toMatchObject({ sendAttempts: 1, status: 'active', lastError: first[0]!.errorCode, lastSent: null, failedAt: null });
    expect(waiting.nextAttemptAt).toBeGreaterThanOrEqual(first[0]!.createdAt.getTime() + 300);
    // Listed as waiting for its retry.
    const retrying = await t.http.get('/api/admin/phonenumber/list-per-page?page=1&status=retrying').set(admin.auth);
    expect(retrying.body.data.map((r: { id: number }) => r.id)).toEqual([target!.id]);
    expect(retrying.body.data[0]).toMatchObject({ send_attempts: 1, failed_at: null, last_error: first[0]!.errorCode });

    const row = await untilIdle(t, member, account.id);
    const logs = await t.ctx.db.select().from(messageLogs).where(eq(messageLogs.phoneNumberId, target!.id)).orderBy(asc(messageLogs.id));
    expect(logs.map((l) => l.success)).toEqual([false, true]);
    expect(logs.map((l) => l.income)).toEqual([0, PRICE]);
    // Not claimed before its time.
    expect(logs[1]!.createdAt.getTime()).toBeGreaterThanOrEqual(waiting.nextAttemptAt!);
    expect((await t.ctx.db.select().from(messageLogs)).length).toBe(logsBefore + 2);
    expect(row).toMatchObject({ count_fail: 1, count_success: 1, income: PRICE });
    const income = (await t.http.get(`/api/admin/messagelog/today-income/${member.id}`).set(member.auth)).body.income as number;
    expect(income - incomeBefore).toBe(PRICE);

    const after = (await t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, target!.id)))[0]!;
    expect(after).toMatchObject({ sendAttempts: 2, nextAttemptAt: null, failedAt: null, status: 'active', countSuccess: 1, countFail: 1 });
    expect(after.lastSent).not.toBeNull();
    expect(after.lastFailedAt).toBe(first[0]!.createdAt.getTime());
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it("attempts exhausted ('Maks. Percobaan' 2) leave the number 'Gagal permanen', listed by the filter and never claimed again", async () => {
    const saved = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...(await settingsNow()), max_attempts: 2 });
    expect(saved.status).toBe(200);
    expect(saved.body.setting.max_attempts).toBe(2);
    const [target, other] = await addTargets(t, 2, 3);
    // The other number was already sent to today: outside the claim (cooldown), so only the target is tried.
    await t.ctx.db.update(phoneNumbers).set({ lastSent: new Date() }).where(eq(phoneNumbers.id, other!.id));
    network(1);
    await startBlast(t, member, account.id);
    await untilIdle(t, member, account.id);
    const logs = await t.ctx.db.select().from(messageLogs).where(eq(messageLogs.phoneNumberId, target!.id));
    expect(logs).toHaveLength(2);
    expect(logs.every((l) => !l.success && l.income === 0)).toBe(true);
    const row = (await t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, target!.id)))[0]!;
    expect(row).toMatchObject({ sendAttempts: 2, nextAttemptAt: null, status: 'nonactive', countFail: 2 });
    expect(row.failedAt).not.toBeNull();

    // 'Gagal permanen' on the list, by ?status=failed (alone and with a search), and nothing else there.
    const failed = await t.http.get('/api/admin/phonenumber/list-per-page?page=1&status=failed').set(admin.auth);
    expect(failed.status).toBe(200);
    expect(failed.body.data.map((r: { id: number }) => r.id)).toEqual([target!.id]);
    expect(failed.body.meta.total).toBe(1);
    expect(failed.body.data[0]).toMatchObject({ status: 'nonactive', send_attempts: 2, next_attempt_at: null });
    expect(failed.body.data[0].failed_at).toEqual(expect.any(String));
    await indexAll(t.ctx.db);
    const searched = await t.http.get(`/api/admin/phonenumber/list-per-page?page=1&status=failed&search=${encodeURIComponent(target!.name)}`).set(admin.auth);
    expect(searched.body.data.map((r: { id: number }) => r.id)).toEqual([target!.id]);
    const none = await t.http.get('/api/admin/phonenumber/list-per-page?page=1&status=retrying').set(admin.auth);
    expect(none.body.data).toEqual([]);
    const bad = await t.http.get('/api/admin/phonenumber/list-per-page?page=1&status=broken').set(admin.auth);
    expect(bad.status).toBe(422);

    // Started again on a healthy network: the number is not claimed (no new log row).
    network(0);
    await startBlast(t, member, account.id);
    await untilIdle(t, member, account.id);
    expect(await t.ctx.db.select().from(messageLogs).where(eq(messageLogs.phoneNumberId, target!.id))).toHaveLength(2);

    // Activated again by an admin, it starts over with fresh attempts and is sent to.
    const put = await t.http.put(`/api/admin/phonenumber/${target!.id}`).set(admin.auth).send({ id: target!.id, number: target!.number, name: target!.name, status: 'active' });
    expect(put.status).toBe(200);
    expect(put.body.phoneNumber).toMatchObject({ status: 'active', failed_at: null, send_attempts: 0 });
    // (its last attempt still counts for the recipient cooldown: moved a day back here)
    await t.ctx.db.update(phoneNumbers).set({ lastSent: new Date(Date.now() - 25 * 3_600_000) }).where(eq(phoneNumbers.id, target!.id));
    await startBlast(t, member, account.id);
    await untilIdle(t, member, account.id);
    const last = await t.ctx.db.select().from(messageLogs).where(eq(messageLogs.phoneNumberId, target!.id)).orderBy(asc(messageLogs.id));
    expect(last.map((l) => l.success)).toEqual([false, false, true]);
    expect((await t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, target!.id)))[0]).toMatchObject({ sendAttempts: 1, failedAt: null });
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it('a permanent reason (no WhatsApp) is not retried', async () => {
    const res = await t.http.get('/api/sim/numbers?registered=false&limit=1').set(SIM);
    const number = res.body.numbers[0].number as string;
    const [row] = await t.ctx.db.insert(phoneNumbers).values({ number, name: 'Tanpa WA' }).returning();
    await startBlast(t, member, account.id);
    await untilIdle(t, member, account.id);
    const logs = await t.ctx.db.select().from(messageLogs).where(eq(messageLogs.phoneNumberId, row!.id));
    expect(logs).toHaveLength(1);
    expect(logs[0]!.errorCode).toBe('not_registered');
    expect((await t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, row!.id)))[0]).toMatchObject({
      sendAttempts: 1,
      nextAttemptAt: null,
      status: 'nonactive',
      lastError: 'not_registered',
    });
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it("'Maks. Percobaan' is a whole number from 1 to 10, refused with a clear message otherwise", async () => {
    const current = await settingsNow();
    expect(current.max_attempts).toBe(3);
    for (const value of [0, 11, 2.5, 'abc', -1]) {
      const res = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...current, max_attempts: value });
      expect(res.status, String(value)).toBe(422);
      expect(res.body.errors?.max_attempts, String(value)).toBeTruthy();
    }
    const res = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...current, max_attempts: 0 });
    expect(res.body.errors.max_attempts).toBe('Max attempts must be a whole number from 1 to 10.');
    expect(res.body.code).toBe('max_attempts_range');
    expect((await settingsNow()).max_attempts).toBe(3);
    const ok = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...current, max_attempts: '10' });
    expect(ok.status).toBe(200);
    expect(ok.body.setting.max_attempts).toBe(10);
    await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...current, max_attempts: 3 });
  });
});

describe('the policy', () => {
  const wait = { baseMs: 60_000, maxMs: 3_600_000 };
  it('waits grow exponentially with equal jitter and a cap', () => {
    expect(retryDelayMs(1, wait, () => 0)).toBe(30_000);
    expect(retryDelayMs(1, wait, () => 1)).toBe(60_000);
    expect(retryDelayMs(2, wait, () => 0)).toBe(60_000);
    expect(retryDelayMs(3, wait, () => 1)).toBe(240_000);
    expect(retryDelayMs(10, wait, () => 1)).toBe(3_600_000);
    expect(retryDelayMs(10, wait, () => 0)).toBe(1_800_000);
    // Below the cap no wait is shorter than the one before it.
    for (let n = 1; n < 6; n += 1) expect(retryDelayMs(n + 1, wait, () => 0)).toBeGreaterThanOrEqual(retryDelayMs(n, wait, () => 1));
  });

  it('classifies reasons by gateway and stops at the last attempt', () => {
    expect(['timeout', 'rate_limited', 'failed'].every((c) => isTransient(c as 'failed', false))).toBe(true);
    expect(isTransient('not_registered', false) || isTransient('invalid_number', false)).toBe(false);
    // Cloud API: 130429 / 131056 reach the engine as rate_limited; its 'failed' and 131047 are refusals.
    expect(isTransient('rate_limited', true) && isTransient('timeout', true)).toBe(true);
    expect(isTransient('failed', true) || isTransient('reengagement', true) || isTransient('not_registered', true)).toBe(false);
    expect(retryOutcome({ success: false, transient: true }, 2, 3, 1000, wait, () => 0)).toEqual({ retryAt: 61_000, failed: false });
    expect(retryOutcome({ success: false, transient: true }, 3, 3, 1000, wait)).toEqual({ retryAt: null, failed: true });
    expect(retryOutcome({ success: false, transient: false }, 1, 3, 1000, wait)).toEqual({ retryAt: null, failed: true });
    expect(retryOutcome({ success: true }, 2, 3, 1000, wait)).toEqual({ retryAt: null, failed: false });
  });
});
