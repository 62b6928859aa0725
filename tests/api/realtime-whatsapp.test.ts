import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { connected, nextMessage, sleep, startTestApp, type TestApp, type TestUser, SIM } from '../helpers';
import { whatsapps } from '../../server/src/db/schema';
import { SimulatorGateway } from '../../server/src/gateway/simulator/simulator';
import { linkByQr, type LinkedAccount } from './whatsapp-fixtures';

type Data = Record<string, unknown>;

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let dev: TestUser;
let aliceAcc: LinkedAccount;
let sAlice: Socket;
let sBob: Socket;
let sAdmin: Socket;
let sDev: Socket;
/** Everything Bob's socket receives on any channel. */
const bobGot: Array<{ channel: string; msg: unknown }> = [];

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob, admin, dev] = await Promise.all([t.user('member'), t.user('member'), t.user('admin'), t.user('dev')]);
  aliceAcc = await linkByQr(t, alice, { phonenumber: '6281377700001' });
  sAlice = t.socket(alice.token);
  sBob = t.socket(bob.token);
  sAdmin = t.socket(admin.token);
  sDev = t.socket(dev.token);
  await Promise.all([connected(sAlice), connected(sBob), connected(sAdmin), connected(sDev)]);
  sBob.onAny((channel: string, msg: unknown) => bobGot.push({ channel, msg }));
});
afterAll(() => t.close());

describe('account events reach the owner and admin/dev, nobody else', () => {
  it('connection.update: a disconnect on the phone reaches the owner, admin and the monitor channel with the absolute state', async () => {
    const own = nextMessage<Data>(sAlice, String(alice.id), (m) => m.event === 'connection.update' && m.data.state === 'disconnected');
    const adm = nextMessage<Data>(sAdmin, 'admin', (m) => m.event === 'connection.update' && m.data.id === aliceAcc.id);
    const monitor = nextMessage<Data>(sDev, 'client-admin', (m) => m.event === 'connection.update' && m.data.deviceId === aliceAcc.deviceId);
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: aliceAcc.deviceId, state: 'disconnected' }).expect(200);
    const msg = await own;
    expect(msg.data).toMatchObject({ id: aliceAcc.id, deviceId: aliceAcc.deviceId, state: 'disconnected', status: 'idle' });
    expect(Number.isNaN(Date.parse(msg.date))).toBe(false);
    expect((await adm).data.state).toBe('disconnected');
    expect((await monitor).data.sender).toMatchObject({ id: aliceAcc.id, user_id: alice.id, clientid: aliceAcc.clientid, state: 'disconnected' });
  });

  it('conflict sets the state and idle', async () => {
    await t.ctx.db.update(whatsapps).set({ status: 'sending' }).where(eq(whatsapps.id, aliceAcc.id));
    const own = nextMessage<Data>(sAlice, String(alice.id), (m) => m.event === 'connection.update' && m.data.state === 'conflict');
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: aliceAcc.deviceId, state: 'conflict' });
    expect((await own).data).toMatchObject({ state: 'conflict', status: 'idle' });
  });

  it('reconnecting, then connected, on an in-place reconnect', async () => {
    const seen: string[] = [];
    const listener = (m: { event: string; data: Data }) => seen.push(`${m.event}:${String(m.data.state)}`);
    sAlice.on(String(alice.id), listener);
    const back = nextMessage<Data>(sAlice, String(alice.id), (m) => m.event === 'connection.update' && m.data.state === 'connected');
    await t.http.post('/api/admin/whatsapp/new-client').set(alice.auth).send({ deviceId: aliceAcc.deviceId, previousDeviceId: aliceAcc.deviceId });
    await back;
    sAlice.off(String(alice.id), listener);
    expect(seen).toEqual(['reconnecting:reconnecting...', 'connection.update:connected']);
  });

  it('reset sends reset and count_synced with zeroed counters', async () => {
    await t.ctx.db.update(whatsapps).set({ countSuccess: 7, countFail: 2, income: 350 }).where(eq(whatsapps.id, aliceAcc.id));
    const reset = nextMessage<Data>(sAlice, String(alice.id), (m) => m.event === 'reset');
    const synced = nextMessage<Data>(sAdmin, 'admin', (m) => m.event === 'count_synced');
    await t.http.post('/api/admin/whatsapp/reset').set(alice.auth).send({ id: aliceAcc.id }).expect(200);
    expect((await reset).data).toMatchObject({ id: aliceAcc.id, state: 'connected' });
    expect((await synced).data).toMatchObject({ id: aliceAcc.id, count_success: 0, count_fail: 0, income: 0 });
  });

  it('suspended carries suspended_count; activated lifts it', async () => {
    const sim = t.ctx.gateway as SimulatorGateway;
    const target = (await t.http.get('/api/sim/numbers?limit=1').set(SIM)).body.numbers[0].number as string;
    await sim.send(aliceAcc.deviceId, { to: target, text: 'x' });
    const suspended = nextMessage<Data>(sAlice, String(alice.id), (m) => m.event === 'suspended');
    await t.http.post('/api/sim/revoke').set(SIM).send({ deviceId: aliceAcc.deviceId }).expect(200);
    expect((await suspended).data).toMatchObject({ id: aliceAcc.id, suspended: true, suspended_count: 1, status: 'idle' });
    const activated = nextMessage<Data>(sAlice, String(alice.id), (m) => m.event === 'activated');
    await t.http.post('/api/admin/whatsapp/activate').set(admin.auth).send({ id: aliceAcc.id }).expect(200);
    expect((await activated).data).toMatchObject({ suspended: false, suspended_count: 1 });
  });

  it('Bob never received any of Alice\'s events', async () => {
    await sleep(100);
    expect(bobGot).toEqual([]);
  });

  it('a socket without a valid token receives nothing', async () => {
    const anon = t.socket();
    const got: unknown[] = [];
    anon.onAny((...args: unknown[]) => got.push(args));
    await expect(connected(anon)).rejects.toThrow();
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: aliceAcc.deviceId, state: 'disconnected' });
    await sleep(100);
    expect(got).toEqual([]);
    expect(anon.connected).toBe(false);
  });
});

describe('/admin/users/active', () => {
  it('counts members with an open socket now', async () => {
    const before = (await t.http.get('/api/admin/users/active').set(admin.auth)).body.count as number;
    const carol = await t.user('member');
    const s = t.socket(carol.token);
    await connected(s);
    expect((await t.http.get('/api/admin/users/active').set(admin.auth)).body.count).toBe(before + 1);
    s.disconnect();
    await sleep(100);
    expect((await t.http.get('/api/admin/users/active').set(admin.auth)).body.count).toBe(before);
  });
});
