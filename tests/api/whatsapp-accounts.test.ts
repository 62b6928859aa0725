import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser, SIM } from '../helpers';
import { whatsapps } from '../../server/src/db/schema';
import { SimulatorGateway } from '../../server/src/gateway/simulator/simulator';
import { eventually, linkByQr, type LinkedAccount } from './whatsapp-fixtures';

let t: TestApp;
let member: TestUser;
let admin: TestUser;
let dev: TestUser;
let accounts: LinkedAccount[];

beforeAll(async () => {
  t = await startTestApp();
  member = await t.user('member');
  admin = await t.user('admin');
  dev = await t.user('dev');
  accounts = [];
  for (let i = 0; i < 12; i++) {
    accounts.push(await linkByQr(t, member, { phonenumber: `62812000000${String(i).padStart(2, '0')}`, pushname: i === 3 ? 'Toko Sinar Jaya' : `Akun ${i}` }));
  }
});
afterAll(() => t.close());

const page = (query: string, user: TestUser = member) => t.http.get(`/api/admin/whatsapp/list-per-page?${query}`).set(user.auth);

async function settle(acc: LinkedAccount, state: string) {
  await eventually(() => t.http.get(`/api/admin/whatsapp/${acc.id}`).set(member.auth), (r) => r.body.whatsapp.state === state);
}

async function revoke(acc: LinkedAccount) {
  const sim = t.ctx.gateway as SimulatorGateway;
  const target = (await t.http.get('/api/sim/numbers?limit=1').set(SIM)).body.numbers[0].number as string;
  const sent = await sim.send(acc.deviceId, { to: target, text: 'x' });
  expect(sent.ok).toBe(true);
  expect((await t.http.post('/api/sim/revoke').set(SIM).send({ deviceId: acc.deviceId })).status).toBe(200);
  // The gateway reports the revoke as an event; the suspension is written when the console handles it.
  await eventually(() => t.http.get(`/api/admin/whatsapp/${acc.id}`).set(member.auth), (r) => r.body.whatsapp.suspended === true);
}

describe('list-per-page', () => {
  it('pages by 10 with meta, newest first', async () => {
    const first = await page('page=1');
    expect(first.body.meta).toEqual({ page: 1, pageSize: 10, total: 12, totalPages: 2 });
    expect(first.body.data).toHaveLength(10);
    expect(first.body.data[0].id).toBe(accounts[11]!.id);
    const second = await page('page=2');
    expect(second.body.data).toHaveLength(2);
    expect(Object.keys(second.body.data[0])).toEqual(
      expect.arrayContaining(['id', 'deviceId', 'clientid', 'pushname', 'phonenumber', 'server', 'serialized', 'proxyId', 'user_id', 'state', 'status', 'interval', 'count_success', 'count_fail', 'income', 'suspended', 'suspended_count']),
    );
  });

  it('searches push name, number and client id', async () => {
    expect((await page('search=sinar')).body.data.map((r: { id: number }) => r.id)).toEqual([accounts[3]!.id]);
    expect((await page('search=6281200000007')).body.data.map((r: { id: number }) => r.id)).toEqual([accounts[7]!.id]);
    expect((await page(`search=${accounts[5]!.clientid}`)).body.data.map((r: { id: number }) => r.id)).toEqual([accounts[5]!.id]);
    expect((await page('search=%25')).body.data).toEqual([]);
  });

  it('filters by the status values kept in s', async () => {
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: accounts[0]!.deviceId, state: 'loggedOut' });
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: accounts[1]!.deviceId, state: 'conflict' });
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: accounts[2]!.deviceId, state: 'disconnected' });
    await settle(accounts[0]!, 'loggedOut');
    await settle(accounts[1]!, 'conflict');
    await settle(accounts[2]!, 'disconnected');
    await t.ctx.db.update(whatsapps).set({ status: 'sending' }).where(eq(whatsapps.id, accounts[4]!.id));
    const ids = async (s: string) => (await page(`search=${encodeURIComponent(s)}`)).body.data.map((r: { id: number }) => r.id);
    expect(await ids('loggedOut')).toEqual([accounts[0]!.id]);
    expect(await ids('Logged Out')).toEqual([accounts[0]!.id]);
    expect(await ids('conflict')).toEqual([accounts[1]!.id]);
    expect(await ids('disconnected')).toEqual([accounts[2]!.id]);
    expect(await ids('sending')).toEqual([accounts[4]!.id]);
    expect((await ids('connected')).length).toBe(9);
    expect(await ids('suspended')).toEqual([]);
    await t.ctx.db.update(whatsapps).set({ status: 'idle' }).where(eq(whatsapps.id, accounts[4]!.id));
  });

  it('synced re-reads states from the gateway', async () => {
    // The row says connected but the gateway knows the device is disconnected.
    await t.ctx.db.update(whatsapps).set({ state: 'connected' }).where(eq(whatsapps.id, accounts[2]!.id));
    const stale = await page('search=6281200000002');
    expect(stale.body.data[0].state).toBe('connected');
    const fresh = await page('search=6281200000002&synced=true');
    expect(fresh.body.data[0].state).toBe('disconnected');
  });
});

describe('counts', () => {
  it('count/{userId}: active = connected and not suspended, everything else inactive', async () => {
    const res = await t.http.get(`/api/admin/whatsapp/count/${member.id}`).set(member.auth);
    expect(res.body).toEqual({ connectedCount: 9, disconnectedCount: 3 });
    const all = await t.http.get('/api/admin/whatsapp/count/all').set(admin.auth);
    expect(all.body).toEqual({ connectedCount: 9, disconnectedCount: 3 });
  });
});

describe('reset, status, interval', () => {
  it('reset zeroes the account counters and income only', async () => {
    const acc = accounts[6]!;
    await t.ctx.db.update(whatsapps).set({ countSuccess: 40, countFail: 3, income: 2000 }).where(eq(whatsapps.id, acc.id));
    const res = await t.http.post('/api/admin/whatsapp/reset').set(member.auth).send({ id: acc.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: acc.id, count_success: 0, count_fail: 0, income: 0 });
    const admins = await t.http.post('/api/admin/whatsapp/reset').set(admin.auth).send({ id: acc.id });
    expect(admins.status).toBe(403);
    const devs = await t.http.post('/api/admin/whatsapp/reset').set(dev.auth).send({ id: acc.id });
    expect(devs.status).toBe(200);
  });

  it('status goes back to idle only; interval takes whole seconds or null', async () => {
    const acc = accounts[8]!;
    await t.ctx.db.update(whatsapps).set({ status: 'sending' }).where(eq(whatsapps.id, acc.id));
    expect((await t.http.put('/api/admin/whatsapp/status').set(member.auth).send({ id: acc.id, status: 'sending' })).status).toBe(422);
    const idle = await t.http.put('/api/admin/whatsapp/status').set(member.auth).send({ id: acc.id, status: 'idle' });
    expect(idle.body.data.status).toBe('idle');
    const set = await t.http.put('/api/admin/whatsapp/interval').set(member.auth).send({ id: acc.id, interval: '12' });
    expect(set.body.data.interval).toBe(12);
    const bad = await t.http.put('/api/admin/whatsapp/interval').set(member.auth).send({ id: acc.id, interval: -1 });
    expect(bad.status).toBe(422);
    const cleared = await t.http.put('/api/admin/whatsapp/interval').set(member.auth).send({ id: acc.id, interval: null });
    expect(cleared.body.data.interval).toBeNull();
  });
});

describe('suspension and activation', () => {
  it('a revoke suspends; admin or dev activate while suspended fewer than 3 times; the third suspension resets and locks', async () => {
    const acc = accounts[9]!;
    await t.ctx.db.update(whatsapps).set({ countSuccess: 10, countFail: 1, income: 500 }).where(eq(whatsapps.id, acc.id));
    await revoke(acc);
    let row = (await t.http.get(`/api/admin/whatsapp/${acc.id}`).set(member.auth)).body.whatsapp;
    expect(row).toMatchObject({ suspended: true, suspended_count: 1, count_success: 10 });
    expect((await t.http.post('/api/admin/whatsapp/activate').set(member.auth).send({ id: acc.id })).status).toBe(403);
    const on = await t.http.post('/api/admin/whatsapp/activate').set(admin.auth).send({ id: acc.id });
    expect(on.body.data).toMatchObject({ suspended: false, suspended_count: 1 });
    expect((await t.http.post('/api/admin/whatsapp/activate').set(admin.auth).send({ id: acc.id })).status).toBe(409);
    await revoke(acc);
    await t.http.post('/api/admin/whatsapp/activate').set(dev.auth).send({ id: acc.id }).expect(200);
    await revoke(acc);
    row = (await t.http.get(`/api/admin/whatsapp/${acc.id}`).set(member.auth)).body.whatsapp;
    expect(row).toMatchObject({ suspended: true, suspended_count: 3, count_success: 0, count_fail: 0, income: 0 });
    const locked = await t.http.post('/api/admin/whatsapp/activate').set(admin.auth).send({ id: acc.id });
    expect(locked.status).toBe(409);
    expect(locked.body.msg).toMatch(/3x/);
    expect((await page('search=suspended')).body.data.map((r: { id: number }) => r.id)).toEqual([acc.id]);
  });
});
