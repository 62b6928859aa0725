import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { transaction } from '../../server/src/db/client';
import { one } from '../../server/src/db/raw';
import { messageLogs, phoneNumbers, settings, users, whatsapps } from '../../server/src/db/schema';
import { engineFor } from '../../server/src/engine/engine';
import { READ_AFTER_MS } from '../../server/src/gateway/simulator/simulator';
import { signBody } from '../../server/src/webhooks/signature';
import { connected, nextMessage, startTestApp, type TestApp, type TestUser } from '../helpers';
import { addTargets, addTemplate, dayCounterViolations, invariantViolations, setRules, startBlast, untilIdle } from './engine-fixtures';
import { linkByQr } from './whatsapp-fixtures';

const SECRET = 'test-app-secret';
const PHONE_NUMBER_ID = '109876543299';
const LATENCY = 300;

let t: TestApp;
let member: TestUser;
let admin: TestUser;
let cloudId: number;
let seq = 0;

beforeAll(async () => {
  t = await startTestApp({
    gateway: 'cloud-api',
    cloud: { baseUrl: 'http://127.0.0.1:9', appSecret: SECRET, verifyToken: 'test-verify-token', ratePerSecond: 80, publicUrl: 'https://blast.example.com' },
    sim: { seed: 'outcomes', latencyMs: LATENCY, failureRate: 0 },
  });
  member = await t.user('member');
  admin = await t.user('admin');
  await t.ctx.db.update(settings).set({ price: 100, referralPercent: 0 }).where(eq(settings.id, 1));
  const [row] = await t.ctx.db
    .insert(whatsapps)
    .values({
      deviceId: `cloud-${PHONE_NUMBER_ID}`,
      clientid: `cloud-${PHONE_NUMBER_ID}`,
      phonenumber: '6281300002222',
      pushname: 'Toko Hasil',
      server: 'c.us',
      serialized: '6281300002222@c.us',
      userId: member.id,
      state: 'connected',
      gateway: 'cloud-api',
      cloudPhoneNumberId: PHONE_NUMBER_ID,
      cloudWabaId: '2000000000009',
      cloudToken: 'v1:aXY=:dGFn:Y2lwaGVy',
    })
    .returning({ id: whatsapps.id });
  cloudId = row!.id;
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

/** Sends the Cloud API accepted, as the engine records them (success, income 0, a wamid, 'sent'). */
async function acceptedSends(n: number): Promise<string[]> {
  return transaction(t.ctx.db, async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 1) {
      seq += 1;
      const number = `62812${String(80000000 + seq)}`;
      const wamid = `wamid.OUT${seq}${Date.now()}`;
      const [target] = await tx.insert(phoneNumbers).values({ number, name: `T ${seq}`, countSuccess: 1, lastSent: new Date() }).returning({ id: phoneNumbers.id });
      await tx.insert(messageLogs).values({ whatsappId: cloudId, userId: member.id, phoneNumberId: target!.id, number, success: true, income: 0, waMessageId: wamid, deliveryStatus: 'sent' });
      ids.push(wamid);
    }
    await tx.update(whatsapps).set({ countSuccess: sql`${whatsapps.countSuccess} + ${n}` }).where(eq(whatsapps.id, cloudId));
    await tx.update(users).set({ totalSuccess: sql`${users.totalSuccess} + ${n}` }).where(eq(users.id, member.id));
    return ids;
  });
}

function post(statuses: Array<{ id: string; status: string }>) {
  const ts = String(Math.floor(Date.now() / 1000));
  const body = {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '2000000000009',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '6281300002222', phone_number_id: PHONE_NUMBER_ID },
              statuses: statuses.map((s) => ({ recipient_id: '6281200000000', timestamp: ts, ...s })),
            },
          },
        ],
      },
    ],
  };
  const raw = JSON.stringify(body);
  return t.http.post('/api/webhooks/whatsapp').set('Content-Type', 'application/json').set('X-Hub-Signature-256', signBody(SECRET, raw)).send(raw).expect(200);
}

/** The account's row as the WhatsApp list shows it (its `today` figures). */
async function listed(user: TestUser, id: number) {
  const res = await t.http.get(`/api/admin/whatsapp/list-per-page?page=1${user !== admin ? `&user_id=${user.id}` : ''}`).set(user.auth).expect(200);
  return (res.body.data as Array<{ id: number; today: Record<string, number> }>).find((r) => r.id === id);
}

const memberIncome = async () => (await one(t.ctx.db.select({ income: users.income }).from(users).where(eq(users.id, member.id)).limit(1)))!.income;

describe("an account's outcomes of the day", () => {
  it('Cloud API statuses move delivered and read once each, out of order or repeated, paying once, told live in absolute values', async () => {
    const [a, b, c] = await acceptedSends(3);
    const socket = t.socket(member.token);
    await connected(socket);
    expect((await listed(member, cloudId))?.today).toEqual({ sent: 3, delivered: 0, read: 0, failed: 0 });

    const live = nextMessage<{ id: number; today: Record<string, number> }>(socket, String(member.id), (m) => m.event === 'outcomes' && m.data.id === cloudId && m.data.today.read === 2);
    await post([{ id: a!, status: 'delivered' }]);
    await post([{ id: a!, status: 'delivered' }]); // Meta's retry
    await post([{ id: a!, status: 'read' }]);
    await post([{ id: b!, status: 'read' }]); // read overtook delivered
    await post([{ id: b!, status: 'delivered' }]);
    await post([{ id: c!, status: 'delivered' }, { id: c!, status: 'sent' }, { id: a!, status: 'delivered' }]);

    const msg = await live;
    // The event carries the row's figures of the day, not a step.
    expect(msg.data.today).toEqual({ sent: 3, delivered: 3, read: 2, failed: 0 });
    expect((await listed(member, cloudId))?.today).toEqual({ sent: 3, delivered: 3, read: 2, failed: 0 });
    const today = (await t.http.get('/api/admin/messagelog/today-count').set(admin.auth).expect(200)).body;
    expect(today).toMatchObject({ success: 3, fail: 0, delivered: 3, read: 2 });
    const daily = (await t.http.get('/api/admin/messagelog/daily?days=1').set(member.auth).expect(200)).body.data;
    expect(daily).toEqual([expect.objectContaining({ success: 3, fail: 0, delivered: 3, read: 2 })]);
    // Paid once per message, whatever order and however many times the statuses came.
    expect(await memberIncome()).toBe(300);
    expect(await dayCounterViolations(t.ctx.db)).toEqual([]);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
    socket.disconnect();
  });

  it('a failed status after acceptance moves the send from sent to failed; delivered and read stay as they were', async () => {
    const before = (await listed(member, cloudId))!.today;
    const [d] = await acceptedSends(1);
    await post([{ id: d!, status: 'failed' }]);
    await post([{ id: d!, status: 'delivered' }]); // a failed message never comes back
    expect((await listed(member, cloudId))?.today).toEqual({ sent: before.sent!, delivered: before.delivered!, read: before.read!, failed: before.failed! + 1 });
    expect(await dayCounterViolations(t.ctx.db)).toEqual([]);
  });

  it("the simulator reports a send delivered after its latency, and read later for a share, told live on the owner's and admin's channels", async () => {
    await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, price: 0 });
    const acc = await linkByQr(t, member, { phonenumber: '6281299993301', pushname: 'Sim Hasil' });
    expect(await addTargets(t, 10)).toHaveLength(10);
    await addTemplate(t.ctx.db);
    const own = t.socket(member.token);
    const adm = t.socket(admin.token);
    await Promise.all([connected(own), connected(adm)]);
    const ownEvents: Array<{ at: number; today: Record<string, number> }> = [];
    own.on(String(member.id), (m: { event: string; data: { id: number; today: Record<string, number> } }) => {
      if (m.event === 'outcomes' && m.data.id === acc.id) ownEvents.push({ at: Date.now(), today: m.data.today });
    });
    const adminDelivered = nextMessage<{ id: number; today: Record<string, number> }>(adm, 'admin', (m) => m.event === 'outcomes' && m.data.id === acc.id && m.data.today.delivered! > 0, 15_000);

    const started = Date.now();
    const start = await startBlast(t, member, acc.id);
    expect(start.body).toMatchObject({ data: { status: 'sending' } });
    await untilIdle(t, member, acc.id, 30_000);
    const logs = await t.ctx.db.select().from(messageLogs).where(eq(messageLogs.whatsappId, acc.id));
    expect(logs).toHaveLength(10);
    // Recorded as sent, with the simulator's message id, and paid at send as before.
    expect(logs.every((l) => l.success && l.waMessageId !== null)).toBe(true);

    // The first delivered comes no sooner than half a latency after its send (the jitter is ±50 %).
    const firstDelivered = await adminDelivered;
    expect(firstDelivered.data.today.sent).toBeGreaterThan(0);
    const deliveredAt = await waitFor(async () => {
      const rows = await t.ctx.db.select().from(messageLogs).where(eq(messageLogs.whatsappId, acc.id));
      return rows.every((r) => r.deliveryStatus === 'delivered' || r.deliveryStatus === 'read') ? rows : null;
    }, 15_000);
    for (const r of deliveredAt) expect(r.statusAt!.getTime() - r.createdAt.getTime()).toBeGreaterThanOrEqual(LATENCY / 2 - 50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LATENCY / 2);

    // A share is read, later than READ_AFTER_MS after the delivery.
    const read = await waitFor(async () => {
      const rows = await t.ctx.db.select().from(messageLogs).where(eq(messageLogs.whatsappId, acc.id));
      const n = rows.filter((r) => r.deliveryStatus === 'read').length;
      return n > 0 ? n : null;
    }, 15_000);
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(10);
    await sleep(READ_AFTER_MS + 3 * LATENCY + 800);
    const final = (await listed(member, acc.id))!.today;
    expect(final.sent).toBe(10);
    expect(final.delivered).toBe(10);
    expect(final.failed).toBe(0);
    // The last event told the row's figures as they stand.
    expect(ownEvents.at(-1)?.today).toEqual(final);
    expect(await dayCounterViolations(t.ctx.db)).toEqual([]);
    own.disconnect();
    adm.disconnect();
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(fn: () => Promise<T | null>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error('timed out');
    await sleep(100);
  }
}
