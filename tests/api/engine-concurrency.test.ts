import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { transaction } from '../../server/src/db/client';
import { isNull } from 'drizzle-orm';
import { messageLogs, phoneNumbers, proxies } from '../../server/src/db/schema';
import { engineFor } from '../../server/src/engine/engine';
import { linkByQr, type LinkedAccount } from './whatsapp-fixtures';
import { addTargets, addTemplate, invariantViolations, setRules, startBlast, untilIdle } from './engine-fixtures';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let t: TestApp;
let member: TestUser;
let account: LinkedAccount;

beforeAll(async () => {
  t = await startTestApp({ sim: { seed: 'test', latencyMs: 5, failureRate: 0 } });
  member = await t.user('member');
  account = await linkByQr(t, member, { phonenumber: '6281266660001' });
  await addTemplate(t.ctx.db);
  await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, price: 25, referralPercent: 0 });
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

describe('the engine next to other requests', () => {
  it('runs one loop when two starts of the same account meet while the connection is held', async () => {
    await addTargets(t, 5);
    await setRules(t.ctx.db, { intervalMin: 1, intervalMax: 1 });
    const engine = engineFor(t.ctx);
    const raw = (await engine.store.account(account.id))!;
    try {
      // Another request's transaction holds the connection, so both starts wait at the same step.
      let release!: () => void;
      const held = transaction(t.ctx.db, () => new Promise<void>((resolve) => (release = resolve)));
      await pause(5);
      const starts = Promise.all([engine.start(raw), engine.start(raw)]);
      await pause(5);
      release();
      await held;
      const [a, b] = await starts;
      expect(a.status).toBe('sending');
      expect(b.status).toBe('sending');
      expect(engine.running).toBe(1);
      // One loop sends once, then waits its 1 s interval; a second loop would have sent too.
      await pause(500);
      expect(await t.ctx.db.select().from(messageLogs)).toHaveLength(1);
      await engine.stop(raw);
    } finally {
      await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0 });
    }
    await untilIdle(t, member, account.id);
    expect(engine.running).toBe(0);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it("keeps every send while other requests' transactions roll back around it", async () => {
    const before = (await t.ctx.db.select().from(messageLogs)).length;
    await addTargets(t, 40, 30);
    // Every number not messaged yet (the 40 new ones and those the previous test left) gets one send.
    const fresh = (await t.ctx.db.select().from(phoneNumbers).where(isNull(phoneNumbers.lastSent))).length;
    expect(fresh).toBeGreaterThanOrEqual(40);
    await startBlast(t, member, account.id);
    let rolledBack = 0;
    // Another request's transactions, each holding the connection across awaits and then failing.
    while (engineFor(t.ctx).loopOf(account.id)) {
      await transaction(t.ctx.db, async (tx) => {
        await tx.insert(proxies).values({ value: `rollback:${rolledBack}` });
        await pause(3);
        throw new Error('refused');
      }).catch(() => (rolledBack += 1));
    }
    await untilIdle(t, member, account.id);
    expect(rolledBack).toBeGreaterThan(0);
    expect(await t.ctx.db.select().from(proxies)).toEqual([]);
    expect((await t.ctx.db.select().from(messageLogs)).length - before).toBe(fresh);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });
});
