import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray, sql } from 'drizzle-orm';
import { rawAll } from '../../server/src/db/raw';
import { messageLogs, whatsapps } from '../../server/src/db/schema';
import { DeliveryReports, TodayOutcomes } from '../../server/src/messagelog/outcomes';
import { applyReports, type DeliveryReport } from '../../server/src/webhooks/statuses';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { engineFor } from '../../server/src/engine/engine';
import { addTargets, addTemplate, dayCounterViolations, setRules, startBlast, untilIdle } from './engine-fixtures';
import { eventually, linkByQr } from './whatsapp-fixtures';

let t: TestApp;
let member: TestUser;
let seq = 0;

beforeAll(async () => {
  t = await startTestApp();
  member = await t.user('member');
});
afterAll(async () => {
  await t.close();
});

async function account(name: string, cloud: string | null = null): Promise<{ id: number; deviceId: string }> {
  seq += 1;
  const deviceId = `dev-${name}-${Date.now()}-${seq}`;
  const phonenumber = `6281377${String(100000 + seq)}`;
  const [row] = await t.ctx.db
    .insert(whatsapps)
    .values({ deviceId, clientid: deviceId, phonenumber, pushname: name, server: 'c.us', serialized: `${phonenumber}@c.us`, userId: member.id, state: 'connected', cloudPhoneNumberId: cloud })
    .returning({ id: whatsapps.id });
  return { id: row!.id, deviceId };
}

/** Sends recorded as the engine records a simulated send: success, paid, the simulator's id, 'sent'. */
async function sends(accountId: number, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => `3EB0TEST${Date.now()}${(seq += 1)}`);
  await t.ctx.db.insert(messageLogs).values(ids.map((id, i) => ({ whatsappId: accountId, userId: member.id, number: `62812${String(70000000 + seq * 100 + i)}`, success: true, income: 100, waMessageId: id, deliveryStatus: 'sent' })));
  return ids;
}

async function statuses(ids: string[]): Promise<Record<string, { status: string | null; at: number | null }>> {
  const rows = await t.ctx.db.select({ id: messageLogs.waMessageId, status: messageLogs.deliveryStatus, at: messageLogs.statusAt }).from(messageLogs).where(inArray(messageLogs.waMessageId, ids));
  return Object.fromEntries(rows.map((r) => [r.id!, { status: r.status, at: r.at?.getTime() ?? null }]));
}

async function today(accountId: number) {
  const [row] = await rawAll<{ d: unknown; r: unknown }>(t.ctx.db, sql`SELECT coalesce(sum(delivered), 0) AS d, coalesce(sum(read), 0) AS r FROM whatsapp_days WHERE whatsapp_id = ${accountId}`);
  return { delivered: Number(row?.d ?? 0), read: Number(row?.r ?? 0) };
}

describe('delivery reports applied many at once', () => {
  it('moves each row forward once, keeps the furthest status of a message given twice, and leaves other devices, Cloud API rows and unknown ids alone', async () => {
    const a = await account('A');
    const b = await account('B');
    const cloud = await account('C', `1098765${Date.now() % 100000}`);
    const [a1, a2, a3, a4] = await sends(a.id, 4);
    const [b1] = await sends(b.id, 1);
    const [c1] = await sends(cloud.id, 1);
    await applyReports(t.ctx.db, [{ deviceId: a.deviceId, messageId: a4!, status: 'read', date: new Date(1_700_000_000_000) }]);

    const at = (n: number) => new Date(1_800_000_000_000 + n);
    const batch: DeliveryReport[] = [
      { deviceId: a.deviceId, messageId: a1!, status: 'delivered', date: at(1) },
      { deviceId: a.deviceId, messageId: a2!, status: 'read', date: at(2) }, // read overtook delivered
      { deviceId: a.deviceId, messageId: a2!, status: 'delivered', date: at(3) },
      { deviceId: a.deviceId, messageId: a3!, status: 'delivered', date: at(4) },
      { deviceId: a.deviceId, messageId: a3!, status: 'read', date: at(5) },
      { deviceId: a.deviceId, messageId: a4!, status: 'delivered', date: at(6) }, // already read: never back
      { deviceId: a.deviceId, messageId: b1!, status: 'delivered', date: at(7) }, // another device's message
      { deviceId: cloud.deviceId, messageId: c1!, status: 'delivered', date: at(8) }, // the Cloud API reports its own
      { deviceId: a.deviceId, messageId: 'nowhere', status: 'delivered', date: at(9) },
    ];
    const results = await applyReports(t.ctx.db, batch);

    expect(results.get(a1!)).toEqual({ accountId: a.id, userId: member.id });
    expect(results.get(a2!)).toEqual({ accountId: a.id, userId: member.id });
    expect(results.get(a3!)).toEqual({ accountId: a.id, userId: member.id });
    expect(results.get(a4!)).toBeNull();
    expect(results.get(b1!)).toBeNull();
    expect(results.get(c1!)).toBeNull();
    expect(results.get('nowhere')).toBe('unknown');
    expect(await statuses([a1!, a2!, a3!, a4!, b1!, c1!])).toEqual({
      [a1!]: { status: 'delivered', at: at(1).getTime() },
      [a2!]: { status: 'read', at: at(2).getTime() },
      [a3!]: { status: 'read', at: at(5).getTime() },
      [a4!]: { status: 'read', at: 1_700_000_000_000 },
      [b1!]: { status: 'sent', at: null },
      [c1!]: { status: 'sent', at: null },
    });
    expect(await today(a.id)).toEqual({ delivered: 4, read: 3 });
    expect(await today(b.id)).toEqual({ delivered: 0, read: 0 });
    expect(await dayCounterViolations(t.ctx.db)).toEqual([]);

    // The same reports again change nothing.
    const again = await applyReports(t.ctx.db, batch);
    expect([...again.values()].filter((r) => r !== null && r !== 'unknown')).toEqual([]);
    expect(await today(a.id)).toEqual({ delivered: 4, read: 3 });
  });

  it('applies reports that came together as one batch, and one that came before its send is recorded once the row is there', async () => {
    const a = await account('D');
    const ids = await sends(a.id, 120);
    const told: number[] = [];
    const outcomes = new TodayOutcomes({ db: t.ctx.db, log: t.ctx.log, realtime: { toUserAndAdmin: (_user: number, _event: string, data: { id: number }) => told.push(data.id) } as never }, 10);
    const reports = new DeliveryReports(t.ctx, outcomes, undefined, 5, 30);
    try {
      for (const messageId of ids) reports.add({ deviceId: a.deviceId, messageId, status: 'delivered', date: new Date() });
      for (const messageId of ids.slice(0, 40)) reports.add({ deviceId: a.deviceId, messageId, status: 'read', date: new Date() });
      // A report for a send whose tick has not committed yet.
      const early = `3EB0EARLY${Date.now()}`;
      reports.add({ deviceId: a.deviceId, messageId: early, status: 'delivered', date: new Date() });
      await reports.flush();
      const moved = await statuses(ids);
      expect(Object.values(moved).filter((s) => s.status === 'read')).toHaveLength(40);
      expect(Object.values(moved).filter((s) => s.status === 'delivered')).toHaveLength(80);
      expect(await today(a.id)).toEqual({ delivered: 120, read: 40 });

      await t.ctx.db.insert(messageLogs).values({ whatsappId: a.id, userId: member.id, number: '6281277700001', success: true, income: 100, waMessageId: early, deliveryStatus: 'sent' });
      await eventually(() => statuses([early]), (s) => s[early]?.status === 'delivered', 5000);
      expect(await today(a.id)).toEqual({ delivered: 121, read: 40 });
      await eventually(() => told, (x) => x.includes(a.id), 3000);
      expect(await dayCounterViolations(t.ctx.db)).toEqual([]);
    } finally {
      reports.close();
      outcomes.close();
    }
  });

  it("waits for the engine's records asked for before a batch, so a report that overtook its send's commit is applied at once", async () => {
    const a = await account('E');
    const messageId = `3EB0PENDING${Date.now()}`;
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const outcomes = new TodayOutcomes({ db: t.ctx.db, log: t.ctx.log, realtime: { toUserAndAdmin: () => undefined } as never }, 10);
    // No retry within the test: the report must find its row in its first batch.
    const reports = new DeliveryReports(t.ctx, outcomes, { recordsSettled: () => committed, betweenTicks: (fn) => fn() }, 5, 60_000);
    try {
      reports.add({ deviceId: a.deviceId, messageId, status: 'delivered', date: new Date() });
      const flushed = reports.flush();
      await new Promise((r) => setTimeout(r, 50));
      expect((await statuses([messageId]))[messageId]).toBeUndefined();
      await t.ctx.db.insert(messageLogs).values({ whatsappId: a.id, userId: member.id, number: '6281277700002', success: true, income: 100, waMessageId: messageId, deliveryStatus: 'sent' });
      commit();
      await flushed;
      expect((await statuses([messageId]))[messageId]?.status).toBe('delivered');
      expect(await today(a.id)).toEqual({ delivered: 1, read: 0 });
    } finally {
      reports.close();
      outcomes.close();
    }
  });

  it("runs a batch between two of the engine's ticks, never beside one, while a blast goes on", async () => {
    await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0 });
    await addTemplate(t.ctx.db);
    expect(await addTargets(t, 60)).toHaveLength(60);
    const acc = await linkByQr(t, member, { phonenumber: '6281299993377', pushname: 'Sela Tick' });
    const { ticker } = engineFor(t.ctx);
    expect((await startBlast(t, member, acc.id)).status).toBe(200);
    await eventually(() => ticker.ticks, (n) => n >= 3, 10_000);
    const during: number[] = [];
    await ticker.betweenTicks(async () => {
      for (let i = 0; i < 5; i += 1) {
        during.push(ticker.ticks);
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    // No tick started while the batch ran, and the blast went on after it.
    expect(new Set(during).size).toBe(1);
    await untilIdle(t, member, acc.id, 30_000);
    expect(ticker.ticks).toBeGreaterThan(during[0]!);
    expect(await dayCounterViolations(t.ctx.db)).toEqual([]);
  });
});
