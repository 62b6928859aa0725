import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { connected, startTestApp, type TestApp, type TestUser, SIM } from '../helpers';
import { messageLogs, phoneNumbers } from '../../server/src/db/schema';
import { engineFor } from '../../server/src/engine/engine';
import { eventually, linkByQr, type LinkedAccount } from './whatsapp-fixtures';
import { addTargets, addTemplate, invariantViolations, setRules, startBlast, untilIdle } from './engine-fixtures';

let t: TestApp;
let member: TestUser;
let account: LinkedAccount;

beforeAll(async () => {
  // A network where every send to a registered number fails (timeout, rate limit, failure).
  t = await startTestApp({ sim: { seed: 'test', latencyMs: 0, failureRate: 1 } });
  member = await t.user('member');
  account = await linkByQr(t, member, { phonenumber: '6281266660001' });
  await addTemplate(t.ctx.db);
  await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, price: 50 });
  // Waits of 300–600 ms: the policy's shape at a test's pace.
  Object.assign(engineFor(t.ctx).options, { baseMs: 600, maxMs: 600 });
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

describe('failed sends', () => {
  it('tries a network failure again later, one log row per attempt showing the code, until Maks. Percobaan (3) leaves it Gagal permanen', async () => {
    const [target] = await addTargets(t, 1);
    const socket = t.socket(member.token);
    await connected(socket);
    const events: Array<{ event: string; data: Record<string, unknown> }> = [];
    socket.on(String(member.id), (m: { event: string; data: Record<string, unknown> }) => events.push(m));

    await startBlast(t, member, account.id);
    const row = await untilIdle(t, member, account.id);
    expect(row.count_fail).toBe(3);
    expect(row.count_success).toBe(0);
    expect(row.income).toBe(0);

    const logs = await t.ctx.db.select().from(messageLogs).orderBy(asc(messageLogs.id));
    expect(logs).toHaveLength(3);
    for (const l of logs) {
      expect(l.number).toBe(target!.number);
      expect(l.success).toBe(false);
      expect(['timeout', 'rate_limited', 'failed']).toContain(l.errorCode);
    }
    // Each retry waited at least half its wait (equal jitter).
    for (let i = 1; i < logs.length; i += 1) expect(logs[i]!.createdAt.getTime() - logs[i - 1]!.createdAt.getTime()).toBeGreaterThanOrEqual(290);

    // 'Fail, attempting (code)...' after the first and the second attempt; the third is the last.
    const attempts = await eventually(() => events.filter((m) => m.event === 'attempting'), (a) => a.length >= 2);
    expect([...new Set(attempts.map((m) => m.data.attempt))]).toEqual([1, 2]);
    for (const a of attempts) expect(['timeout', 'rate_limited', 'failed']).toContain(a.data.attemptingCode);

    const [number] = await t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, target!.id));
    expect(number).toMatchObject({ sendAttempts: 3, nextAttemptAt: null, status: 'nonactive', countFail: 3 });
    expect(number!.failedAt).not.toBeNull();
    expect(number!.lastError).toBe(logs[2]!.errorCode);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it('counts a number without WhatsApp as a failure at once, without retrying, and leaves it Gagal permanen', async () => {
    await t.ctx.db.delete(phoneNumbers);
    const res = await t.http.get('/api/sim/numbers?registered=false&limit=1').set(SIM);
    const number = res.body.numbers[0].number as string;
    await t.ctx.db.insert(phoneNumbers).values({ number, name: 'Tanpa WA' });
    const before = (await t.ctx.db.select().from(messageLogs)).length;
    const started = Date.now();
    await startBlast(t, member, account.id);
    await untilIdle(t, member, account.id);
    expect(Date.now() - started).toBeLessThan(300 * 3);
    const logs = (await t.ctx.db.select().from(messageLogs)).filter((l) => l.number === number);
    expect(logs).toHaveLength(1);
    expect((await t.ctx.db.select().from(messageLogs)).length).toBe(before + 1);
    expect(logs[0]!.success).toBe(false);
    expect(logs[0]!.errorCode).toBe('not_registered');
    const [row] = await t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.number, number));
    expect(row).toMatchObject({ sendAttempts: 1, nextAttemptAt: null, status: 'nonactive', lastError: 'not_registered' });
    expect(row!.failedAt).not.toBeNull();
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });
});
