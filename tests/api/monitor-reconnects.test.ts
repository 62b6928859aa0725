import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { connected, SIM, startTestApp, type TestApp, type TestUser } from '../helpers';
import { whatsapps } from '../../server/src/db/schema';
import { one } from '../../server/src/db/raw';
import { eventually, linkByQr, type LinkedAccount } from './whatsapp-fixtures';

type Message = { event: string; data: Record<string, unknown> };

let t: TestApp;
let member: TestUser;
let dev: TestUser;
let account: LinkedAccount;
let sDev: Socket;
/** Every client-admin message about the account, as the realtime monitor receives them. */
const got: Message[] = [];

beforeAll(async () => {
  t = await startTestApp();
  [member, dev] = await Promise.all([t.user('member'), t.user('dev')]);
  account = await linkByQr(t, member, { phonenumber: '6281355500021' });
  sDev = t.socket(dev.token);
  await connected(sDev);
  sDev.on('client-admin', (m: Message) => {
    if (m.data.deviceId === account.deviceId) got.push(m);
  });
});
afterAll(() => t.close());

const row = () => one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, account.id)));
const count = async () => (await row())?.reconnectCount;
const setPhone = (state: string) => t.http.post('/api/sim/connection').set(SIM).send({ deviceId: account.deviceId, state }).expect(200);
const stateIs = (s: string) => eventually(async () => (await row())?.state, (v) => v === s);
/** The latest such message received after the first `since` ones (a step's own, not an earlier step's). */
const last = (since: number, event: string, state?: string) => eventually(
  () => got.slice(since).reverse().find((m) => m.event === event && (state === undefined || m.data.state === state)),
  (m) => m !== undefined,
);

describe('the reconnect count (reconnectTime) of a device', () => {
  it('starts at 0 and is sent with the account events', async () => {
    expect(await count()).toBe(0);
    const since = got.length;
    await setPhone('disconnected');
    await stateIs('disconnected');
    expect((await last(since, 'connection.update', 'disconnected'))!.data.reconnectTime).toBe(0);
  });

  it('a dropped session that the gateway connects again counts one reconnect', async () => {
    const since = got.length;
    await setPhone('connected');
    await stateIs('connected');
    expect(await count()).toBe(1);
    expect((await last(since, 'connection.update', 'connected'))!.data.reconnectTime).toBe(1);
  });

  it('an in-place reconnect after a conflict counts once, from its reconnecting event on', async () => {
    await setPhone('conflict');
    await stateIs('conflict');
    const since = got.length;
    const res = await t.http.post('/api/admin/whatsapp/new-client').set(member.auth).send({ deviceId: account.deviceId, previousDeviceId: account.deviceId });
    expect(res.status).toBe(200);
    await stateIs('connected');
    expect(await count()).toBe(2);
    expect((await last(since, 'reconnecting'))!.data.reconnectTime).toBe(2);
    expect((await last(since, 'connection.update', 'connected'))!.data.reconnectTime).toBe(2);
  });

  it('every realtime message for the device carries it, and the monitor socket view keeps it', async () => {
    expect(got.length).toBeGreaterThanOrEqual(5);
    expect(got.every((m) => typeof m.data.reconnectTime === 'number')).toBe(true);
    const ring = await t.http.get(`/api/dev/monitor/socket?id=${account.deviceId}`).set(dev.auth);
    const accountEvents = (ring.body.data as Message[]).filter((m) => m.data.id === account.id);
    expect(accountEvents[0]!.data.reconnectTime).toBe(2);
    const local = await t.http.get('/api/dev/monitor/local').set(dev.auth);
    expect(local.body.data.find((e: { accountId?: number }) => e.accountId === account.id).reconnectTime).toBe(2);
  });

  it('linking the account again on a new device (Reconnect from /whatsapp/create?r=) counts one more', async () => {
    await setPhone('loggedOut');
    await stateIs('loggedOut');
    const moved = await linkByQr(t, member, { phonenumber: '6281355500021', reconnect: account.id });
    expect(moved.id).toBe(account.id);
    expect(await count()).toBe(3);
  });
});
