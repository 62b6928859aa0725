import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  engineFor(t.ctx).options.retryDelayMs = 300;
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

describe('failed sends', () => {
  it('retries a network failure 3 times, showing the code, then counts one failure', async () => {
    const [target] = await addTargets(t, 1);
    const socket = t.socket(member.token);
    await connected(socket);
    const events: Array<{ event: string; data: Record<string, unknown> }> = [];
    socket.on(String(member.id), (m: { event: string; data: Record<string, unknown> }) => events.push(m));

    await startBlast(t, member, account.id);
    const row = await untilIdle(t, member, account.id);
    expect(row.count_fail).toBe(1);
    expect(row.count_success).toBe(0);
    expect(row.income).toBe(0);

    const logs = (await t.ctx.db.select().from(messageLogs));
    expect(logs).toHaveLength(1);
    expect(logs[0]!.number).toBe(target!.number);
    expect(logs[0]!.success).toBe(false);
    expect(['timeout', 'rate_limited', 'failed']).toContain(logs[0]!.errorCode);

    const attempts = await eventually(() => events.filter((m) => m.event === 'attempting'), (a) => a.length >= 3);
    expect(attempts.map((m) => m.data.attempt)).toEqual([1, 2, 3]);
    for (const a of attempts) expect(['timeout', 'rate_limited', 'failed']).toContain(a.data.attemptingCode);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it('counts a number without WhatsApp as a failure at once, without retrying', async () => {
    await t.ctx.db.delete(phoneNumbers);
    const res = await t.http.get('/api/sim/numbers?registered=false&limit=1').set(SIM);
    const number = res.body.numbers[0].number as string;
    await t.ctx.db.insert(phoneNumbers).values({ number, name: 'Tanpa WA' });
    const started = Date.now();
    await startBlast(t, member, account.id);
    await untilIdle(t, member, account.id);
    expect(Date.now() - started).toBeLessThan(300 * 3);
    const log = (await t.ctx.db.select().from(messageLogs)).find((l) => l.number === number);
    expect(log?.success).toBe(false);
    expect(log?.errorCode).toBe('not_registered');
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });
});
