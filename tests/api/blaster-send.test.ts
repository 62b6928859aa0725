import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one } from '../../server/src/db/raw';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser, SIM } from '../helpers';
import { messageLogs, optOuts, phoneNumbers, whatsapps } from '../../server/src/db/schema';
import { ROLE_DENIED } from '../../server/src/auth/middleware';
import { engineFor } from '../../server/src/engine/engine';
import { eventually, linkByQr, type LinkedAccount } from './whatsapp-fixtures';
import { addTargets } from './engine-fixtures';

let t: TestApp;
let admin: TestUser;
let dev: TestUser;
let member: TestUser;
let sender: LinkedAccount;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  dev = await t.user('dev');
  member = await t.user('member');
  sender = await linkByQr(t, member, { phonenumber: '6281233330001' });
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

const send = (u: TestUser, body: Record<string, unknown>) => t.http.post('/api/admin/whatsapp/send-message/1').set(u.auth).send(body);
const inbox = async (n: string) => (await t.http.get(`/api/sim/inbox/${n}`).set(SIM)).body.messages as Array<{ text: string; from: string }>;

describe('the Blaster send', () => {
  it('sends the message to the chosen receivers with {name} filled in, without counting it as a blast', async () => {
    const [a, b] = await addTargets(t, 2);
    const res = await send(admin, { senders: sender.phonenumber, targets: `${a!.number},${b!.number}`, message: 'Halo {name}!' });
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('Pesan blaster berhasil dikirim ke target.');
    expect(res.body.sent).toBe(2);
    expect(res.body.skippedCount).toBe(0);
    expect((await inbox(a!.number))[0]).toMatchObject({ text: `Halo ${a!.name}!`, from: sender.phonenumber });
    expect((await inbox(b!.number))[0]!.text).toBe(`Halo ${b!.name}!`);
    expect((await t.ctx.db.select().from(messageLogs))).toHaveLength(0);
    expect((await one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, sender.id))))?.countSuccess).toBe(0);
    expect((await one(t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, a!.id))))?.lastSent).not.toBeNull();
  });

  it('skips opted-out receivers and says how many, for a list and for All', async () => {
    const [c, d] = await addTargets(t, 2, 2);
    await t.ctx.db.insert(optOuts).values({ number: c!.number, reason: 'Balasan STOP' });
    const res = await send(dev, { senders: sender.clientid, targets: [c!.number, d!.number, '0812'], message: 'Info' });
    expect(res.status).toBe(200);
    expect(res.body.sent).toBe(1);
    expect(res.body.optedOutCount).toBe(1);
    expect(res.body.skipped).toEqual([
      { number: '0812', reason: 'nomor tidak valid' },
      { number: c!.number, reason: 'opted out' },
    ]);
    expect(await inbox(c!.number)).toEqual([]);

    const all = await send(admin, { senders: sender.clientid, targets: 'All', message: 'Semua' });
    expect(all.status).toBe(200);
    const active = (await t.ctx.db.select().from(phoneNumbers)).filter((p) => p.number !== c!.number);
    expect(all.body.sent).toBe(active.length);
    expect(await inbox(c!.number)).toEqual([]);

    const none = await send(admin, { senders: sender.clientid, targets: c!.number, message: 'x' });
    expect(none.status).toBe(422);
  });

  it('answers a partly failed send with the delivered count and each failed number with its reason', async () => {
    const [ok] = await addTargets(t, 1, 7);
    const pool = (await t.http.get('/api/sim/numbers?registered=false&limit=2').set(SIM)).body.numbers as Array<{ number: string }>;
    const res = await send(admin, { senders: sender.clientid, targets: [ok!.number, ...pool.map((p) => p.number)], message: 'Halo {name}' });
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('Pesan blaster berhasil dikirim ke target.');
    expect(res.body.sent).toBe(1);
    expect(res.body.failed).toEqual(expect.arrayContaining(pool.map((p) => ({ number: p.number, error: 'not_registered' }))));
    expect(res.body.failed).toHaveLength(2);
    expect(await inbox(ok!.number)).toHaveLength(1);
  });

  it('refuses a sender that is not connected with "{number} is {state}"', async () => {
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: sender.deviceId, state: 'disconnected' });
    await eventually(async () => (await one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, sender.id))))?.state, (s) => s === 'disconnected');
    const res = await send(admin, { senders: sender.clientid, targets: '6281234567890', message: 'x' });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe(`${sender.phonenumber} is DISCONNECTED`);
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: sender.deviceId, state: 'connected' });
  });

  it('validates the payload and is for admin and dev only', async () => {
    const empty = await send(admin, {});
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors)).toEqual(expect.arrayContaining(['senders', 'targets', 'message']));
    expect((await send(admin, { senders: 'nobody', targets: '6281234567890', message: 'x' })).status).toBe(404);
    const byMember = await send(member, { senders: sender.clientid, targets: '6281234567890', message: 'x' });
    expect(byMember.status).toBe(403);
    expect(byMember.body.msg).toBe(ROLE_DENIED);
  });
});
