import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { one } from '../../server/src/db/raw';
import { eq } from 'drizzle-orm';
import { connected, startTestApp, type TestApp, type TestUser, SIM } from '../helpers';
import { messageLogs, messageTemplates, phoneNumbers, users, whatsapps } from '../../server/src/db/schema';
import { SimulatorGateway } from '../../server/src/gateway/simulator/simulator';
import { engineFor } from '../../server/src/engine/engine';
import { eventually, linkByQr, type LinkedAccount } from './whatsapp-fixtures';
import { addTargets, addTemplate, invariantViolations, setRules, startBlast, stopBlast, untilIdle } from './engine-fixtures';

let t: TestApp;
let member: TestUser;
let other: TestUser;
let a1: LinkedAccount;
let a2: LinkedAccount;

beforeAll(async () => {
  // A little network latency, so one account cannot finish every target before the other starts.
  t = await startTestApp({ sim: { seed: 'test', latencyMs: 30, failureRate: 0 } });
  member = await t.user('member');
  other = await t.user('member');
  a1 = await linkByQr(t, member, { phonenumber: '6281299990001', pushname: 'Blast Satu' });
  a2 = await linkByQr(t, member, { phonenumber: '6281299990002', pushname: 'Blast Dua' });
  await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, price: 0, recipientCooldownHours: 24 });
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

beforeEach(async () => {
  // Each test blasts its own numbers and templates.
  await t.ctx.db.delete(messageLogs);
  await t.ctx.db.delete(phoneNumbers);
  await t.ctx.db.delete(messageTemplates);
  await t.ctx.db.update(whatsapps).set({ countSuccess: 0, countFail: 0, income: 0 });
  await t.ctx.db.update(users).set({ totalSuccess: 0, totalFail: 0, income: 0 });
});

describe('a blast through the simulator', () => {
  it('two accounts blast 50 numbers: each once, counters equal the log, both finish', async () => {
    const targets = await addTargets(t, 50);
    const tpl = await addTemplate(t.ctx.db);
    const s1 = await startBlast(t, member, a1.id);
    const s2 = await startBlast(t, member, a2.id);
    expect(s1.status).toBe(200);
    expect(s1.body.data.status).toBe('sending');
    expect(s2.status).toBe(200);
    const r1 = await untilIdle(t, member, a1.id);
    const r2 = await untilIdle(t, member, a2.id);
    expect(Number(r1.count_success) + Number(r2.count_success)).toBe(50);
    expect(Number(r1.count_success)).toBeGreaterThan(0);
    expect(Number(r2.count_success)).toBeGreaterThan(0);

    const logs = (await t.ctx.db.select().from(messageLogs));
    expect(logs).toHaveLength(50);
    expect(new Set(logs.map((l) => l.number)).size).toBe(50);
    expect(logs.every((l) => l.success && l.templateId === tpl.id && l.userId === member.id)).toBe(true);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
    expect((await one(t.ctx.db.select().from(messageTemplates).where(eq(messageTemplates.id, tpl.id))))?.countUse).toBe(50);

    // What a target received: the template with its {name} and {phoneNumber} filled in.
    const first = targets[0]!;
    const inbox = await t.http.get(`/api/sim/inbox/${first.number}`).set(SIM);
    expect(inbox.body.messages[0].text).toBe(`Halo ${first.name}, nomor ${first.number}`);
  });

  it('never messages one number from two accounts at the same time', async () => {
    await addTargets(t, 6);
    await addTemplate(t.ctx.db);
    await setRules(t.ctx.db, { recipientCooldownHours: 0 });
    const sim = t.ctx.gateway as SimulatorGateway;
    const original = sim.send.bind(sim);
    const inFlight = new Set<string>();
    let overlaps = 0;
    let sends = 0;
    sim.send = async (deviceId, message) => {
      if (inFlight.has(message.to)) overlaps += 1;
      inFlight.add(message.to);
      sends += 1;
      // A slow network, so sends of the two accounts overlap in time.
      await new Promise((r) => setTimeout(r, 3));
      try {
        return await original(deviceId, message);
      } finally {
        inFlight.delete(message.to);
      }
    };
    try {
      await startBlast(t, member, a1.id);
      await startBlast(t, member, a2.id);
      while (sends < 120) await new Promise((r) => setTimeout(r, 10));
      await Promise.all([stopBlast(t, member, a1.id), stopBlast(t, member, a2.id)]);
    } finally {
      sim.send = original;
      await setRules(t.ctx.db, { recipientCooldownHours: 24 });
    }
    expect(overlaps).toBe(0);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it('chooses the active template with the lowest count_use', async () => {
    await addTargets(t, 9);
    const a = await addTemplate(t.ctx.db, { textWa: 'A {name}', countUse: 5 });
    const b = await addTemplate(t.ctx.db, { textWa: 'B {name}', countUse: 2 });
    await addTemplate(t.ctx.db, { textWa: 'C {name}', countUse: 0, status: 'nonactive' });
    await startBlast(t, member, a1.id);
    await untilIdle(t, member, a1.id);
    const uses = (await t.ctx.db.select().from(messageTemplates));
    // 9 sends level the two active templates: B alone up to 5, then taking turns.
    expect(uses.find((x) => x.id === a.id)?.countUse).toBe(8);
    expect(uses.find((x) => x.id === b.id)?.countUse).toBe(8);
    expect(uses.find((x) => x.status === 'nonactive')?.countUse).toBe(0);
    const logged = (await t.ctx.db.select().from(messageLogs));
    expect(logged.filter((l) => l.templateId === a.id)).toHaveLength(3);
    expect(logged.filter((l) => l.templateId === b.id)).toHaveLength(6);
  });

  it('keeps to the recipient cooldown and sends never-sent numbers first', async () => {
    const targets = await addTargets(t, 4);
    await addTemplate(t.ctx.db);
    const hour = 3_600_000;
    const set = async (i: number, ago: number) =>
      await t.ctx.db.update(phoneNumbers).set({ lastSent: new Date(Date.now() - ago) }).where(eq(phoneNumbers.id, targets[i]!.id));
    await set(0, 1 * hour); // inside the 24 h cooldown
    await set(1, 23 * hour); // inside
    await set(2, 25 * hour); // outside: may be sent, after the never-sent one
    await startBlast(t, member, a1.id);
    await untilIdle(t, member, a1.id);
    const sent = (await t.ctx.db.select().from(messageLogs).orderBy(messageLogs.id)).map((l) => l.number);
    expect(sent).toEqual([targets[3]!.number, targets[2]!.number]);
  });

  it('refuses to start without an active template, and ends a run with error_blast when its templates are switched off', async () => {
    await addTargets(t, 4);
    const refused = await startBlast(t, member, a1.id);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe('Tidak ada template pesan yang aktif');
    expect(await t.ctx.db.select().from(messageLogs)).toHaveLength(0);

    await addTemplate(t.ctx.db);
    await setRules(t.ctx.db, { intervalMin: 1, intervalMax: 1 });
    const s = t.socket(member.token);
    await connected(s);
    const events: Array<{ event: string; message?: string }> = [];
    s.on(String(member.id), (m: { event: string; data: { id: number; message?: string } }) => {
      if (m.data.id === a1.id) events.push({ event: m.event, message: m.data.message });
    });
    expect((await startBlast(t, member, a1.id)).status).toBe(200);
    await eventually(() => t.ctx.db.select().from(messageLogs), (logs) => logs.length >= 1);
    // Every template switched off while the run waits for its next send: the run ends with the reason.
    await t.ctx.db.update(messageTemplates).set({ status: 'nonactive' });
    const row = await untilIdle(t, member, a1.id);
    expect(row.count_success).toBeLessThan(4);
    const ended = await eventually(() => events, (e) => e.some((x) => x.event === 'error_blast'));
    expect(ended.find((x) => x.event === 'error_blast')?.message).toBe('Tidak ada template pesan yang aktif');
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it('sends live events with absolute values to the owner only', async () => {
    await addTargets(t, 3);
    await addTemplate(t.ctx.db);
    await setRules(t.ctx.db, { intervalMin: 1, intervalMax: 1 });
    const mine = t.socket(member.token);
    const theirs = t.socket(other.token);
    await Promise.all([connected(mine), connected(theirs)]);
    const got: Array<{ event: string; data: Record<string, unknown> }> = [];
    const leaked: string[] = [];
    // Today's outcomes are told on their own timer (and after late delivery reports), apart from the row's events.
    mine.on(String(member.id), (m: { event: string; data: Record<string, unknown> }) => m.event !== 'outcomes' && got.push(m));
    theirs.on(String(other.id), (m: { event: string }) => leaked.push(m.event));
    theirs.on(String(member.id), (m: { event: string }) => leaked.push(m.event));
    try {
      await startBlast(t, member, a1.id);
      const end = Date.now() + 5000;
      while (!got.some((m) => m.event === 'waiting') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      await stopBlast(t, member, a1.id);
    } finally {
      await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0 });
    }
    await eventually(() => got.at(-1)?.event, (e) => e === 'stop');
    const names = got.map((m) => m.event);
    // At zero latency a row's events merge: one count message, then the latest other event.
    expect(names).toContain('waiting');
    expect(names.indexOf('count_success')).toBeGreaterThanOrEqual(0);
    expect(names.indexOf('count_success')).toBeLessThan(names.indexOf('waiting'));
    expect(names[names.length - 1]).toBe('stop');
    const waiting = got.find((m) => m.event === 'waiting')!;
    expect(waiting.data.waitTime).toBe(1);
    expect(waiting.data.status).toBe('sending');
    expect(waiting.data.count_success).toBe(1);
    expect(waiting.data.id).toBe(a1.id);
    const last = got[got.length - 1]!;
    expect(last.data.status).toBe('idle');
    expect(last.data.count_success).toBe((await one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, a1.id))))?.countSuccess);
    expect(leaked).toEqual([]);
  });
});
