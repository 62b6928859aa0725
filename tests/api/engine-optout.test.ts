import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one } from '../../server/src/db/raw';
import { eq } from 'drizzle-orm';
import { connected, startTestApp, type TestApp, type TestUser, SIM } from '../helpers';
import { messageLogs, messageTemplates, optOuts, phoneNumbers, whatsapps } from '../../server/src/db/schema';
import { engineFor } from '../../server/src/engine/engine';
import { eventually, linkByQr, type LinkedAccount } from './whatsapp-fixtures';
import { addTargets, addTemplate, invariantViolations, setRules, startBlast, untilIdle } from './engine-fixtures';

let t: TestApp;
let member: TestUser;
let admin: TestUser;
let acc: LinkedAccount;

beforeAll(async () => {
  t = await startTestApp();
  member = await t.user('member');
  admin = await t.user('admin');
  acc = await linkByQr(t, member, { phonenumber: '6281244440001' });
  await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, recipientCooldownHours: 0 });
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

const number = async (id: number) => (await one(t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, id))))!;
const inbox = async (n: string) => (await t.http.get(`/api/sim/inbox/${n}`).set(SIM)).body.messages as Array<{ text: string; buttons: Array<{ id: string; type: string }> }>;
const reply = (from: string, text: string, buttonId?: string) => t.http.post('/api/sim/reply').set(SIM).send({ from, deviceId: acc.deviceId, text, buttonId });
const accountRow = async () => (await one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, acc.id))))!;

describe('opt-out', () => {
  it('a STOP / BERHENTI / UNSUBSCRIBE reply in any case makes the number nonactive and suppressed; other text does not', async () => {
    const targets = await addTargets(t, 5);
    const admins = t.socket(admin.token);
    await connected(admins);
    const rows: Array<{ event: string; data: { receiver?: { id: number; status: string } } }> = [];
    admins.on('client-admin', (m: (typeof rows)[number]) => rows.push(m));

    expect((await reply(targets[0]!.number, '  stop ')).status).toBe(200);
    await reply(targets[1]!.number, 'Berhenti');
    await reply(targets[2]!.number, 'UNSUBSCRIBE');
    await reply(targets[3]!.number, 'stop please');
    // The reply is handled as the gateway's inbound event, after the simulated phone's answer.
    const statuses = () => Promise.all([0, 1, 2, 3].map(async (i) => (await number(targets[i]!.id)).status));
    expect(await eventually(statuses, (s) => s.filter((x) => x === 'nonactive').length === 3)).toEqual(['nonactive', 'nonactive', 'nonactive', 'active']);
    const suppressed = (await t.ctx.db.select().from(optOuts));
    expect(suppressed.map((o) => o.number).sort()).toEqual([targets[0]!.number, targets[1]!.number, targets[2]!.number].sort());
    expect(suppressed.find((o) => o.number === targets[0]!.number)?.reason).toBe('Balasan STOP');
    await eventually(() => rows, (r) => r.some((m) => m.event === 'opt_out' && m.data.receiver?.id === targets[0]!.id));

    // An admin re-activating the row does not bring it back: the suppression list still holds it.
    await t.ctx.db.update(phoneNumbers).set({ status: 'active' }).where(eq(phoneNumbers.id, targets[0]!.id));
    await addTemplate(t.ctx.db);
    await setRules(t.ctx.db, { recipientCooldownHours: 24 });
    await startBlast(t, member, acc.id);
    await untilIdle(t, member, acc.id);
    const sent = new Set((await t.ctx.db.select().from(messageLogs)).map((l) => l.number));
    expect(sent.has(targets[0]!.number)).toBe(false);
    expect(sent.has(targets[1]!.number)).toBe(false);
    expect(sent.has(targets[2]!.number)).toBe(false);
    expect(sent.has(targets[3]!.number)).toBe(true);
    expect(sent.has(targets[4]!.number)).toBe(true);
    expect(await inbox(targets[0]!.number)).toEqual([]);
    await setRules(t.ctx.db, { recipientCooldownHours: 0 });
  });

  it('a stop_button press opts the number out', async () => {
    await t.ctx.db.update(messageTemplates).set({ status: 'nonactive' });
    await addTemplate(t.ctx.db, {
      textWa: 'Promo untuk {name}',
      button: JSON.stringify([
        { id: 1, title: 'Info', type: 'reply_button' },
        { id: 2, title: 'Berhenti', type: 'stop_button' },
      ]),
    });
    const [target] = await addTargets(t, 1, 10);
    await startBlast(t, member, acc.id, false);
    await untilIdle(t, member, acc.id);
    const got = (await inbox(target!.number))[0]!;
    expect(got.text).toBe(`Promo untuk ${target!.name}`);
    const reply1 = got.buttons.find((b) => b.type === 'reply_button')!;
    const stop = got.buttons.find((b) => b.type === 'stop_button')!;
    await reply(target!.number, 'Info', reply1.id);
    await new Promise((r) => setTimeout(r, 200));
    expect((await number(target!.id)).status).toBe('active');
    await reply(target!.number, 'Berhenti', stop.id);
    // Handled as the gateway's inbound event, after the simulated phone's answer.
    expect((await eventually(() => number(target!.id), (n) => n.status === 'nonactive')).status).toBe('nonactive');
    expect((await one(t.ctx.db.select().from(optOuts).where(eq(optOuts.number, target!.number))))?.reason).toBe('Tombol Berhenti');
  });
});

describe('suspension', () => {
  it('a revoke suspends the account and stops its loop; Activated lifts it; the third one resets the counters', async () => {
    await addTargets(t, 30, 20);
    await setRules(t.ctx.db, { recipientCooldownHours: 0 });
    for (let round = 1; round <= 3; round++) {
      const before = (await t.ctx.db.select().from(messageLogs)).length;
      await startBlast(t, member, acc.id);
      // Two sends of this round are recorded, so the device has a message of its own to delete.
      await eventually(async () => (await t.ctx.db.select().from(messageLogs)).length, (n) => n >= before + 2);
      expect((await t.http.post('/api/sim/revoke').set(SIM).send({ deviceId: acc.deviceId })).status).toBe(200);
      const idle = await untilIdle(t, member, acc.id);
      expect(idle.suspended).toBe(true);
      expect(idle.suspended_count).toBe(round);
      // The loop ends after its send in flight, which may finish after the row turned idle.
      expect(await eventually(() => engineFor(t.ctx).loopOf(acc.id), (loop) => loop === undefined)).toBeUndefined();
      const refused = await startBlast(t, member, acc.id);
      expect(refused.status).toBe(403);
      const activate = await t.http.post('/api/admin/whatsapp/activate').set(admin.auth).send({ id: acc.id });
      if (round < 3) {
        expect(activate.status).toBe(200);
        expect((await accountRow()).suspended).toBe(false);
      } else {
        expect(activate.status).toBe(409);
        expect((await accountRow()).suspended).toBe(true);
        // Zeroed at the third suspension; only the send that was already in flight may count after it.
        expect((await accountRow()).countSuccess + (await accountRow()).countFail).toBeLessThanOrEqual(1);
      }
    }
    const logs = (await t.ctx.db.select().from(messageLogs)).length;
    await new Promise((r) => setTimeout(r, 100));
    expect((await t.ctx.db.select().from(messageLogs)).length).toBe(logs);
    expect((await t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.inUse, 1)))).toEqual([]);
    expect((await invariantViolations(t.ctx.db)).filter((v) => !v.startsWith('account'))).toEqual([]);
  });
});
