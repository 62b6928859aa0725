import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser, SIM } from '../helpers';
import { proxies } from '../../server/src/db/schema';
import { one } from '../../server/src/db/raw';
import { eventually, linkByQr, newDeviceId, type LinkedAccount } from './whatsapp-fixtures';

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let dev: TestUser;
let staff: TestUser;
let account: LinkedAccount;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.user('member');
  other = await t.user('member');
  admin = await t.user('admin');
  dev = await t.user('dev');
  staff = await t.user('staff');
  account = await linkByQr(t, owner, { phonenumber: '6281355550001', pushname: 'Warung Owner' });
});
afterAll(() => t.close());

describe('linking calls', () => {
  it('new-client answers the least-used active proxy, or null when there is none', async () => {
    const none = await t.http.post('/api/admin/whatsapp/new-client').set(owner.auth).send({ deviceId: newDeviceId() });
    expect(none.body).toEqual({ proxyId: null });
    const [busy] = await t.ctx.db.insert(proxies).values({ value: 'http://10.0.0.1:8080', countUse: 5 }).returning();
    const [quiet] = await t.ctx.db.insert(proxies).values({ value: 'http://10.0.0.2:8080', countUse: 1 }).returning();
    await t.ctx.db.insert(proxies).values({ value: 'http://10.0.0.3:8080', countUse: 0, status: 'nonactive' });
    const res = await t.http.post('/api/admin/whatsapp/new-client').set(owner.auth).send({ deviceId: newDeviceId() });
    expect(res.body.proxyId).toBe(quiet!.id);
    const linked = await linkByQr(t, owner);
    expect(linked.proxyId).toBe(quiet!.id);
    expect((await one(t.ctx.db.select().from(proxies).where(eq(proxies.id, quiet!.id))))!.countUse).toBe(2);
    expect(busy!.countUse).toBe(5);
    await t.ctx.db.delete(proxies);
  });

  it('client-state follows the device: QR, then CONNECTED once linked', async () => {
    const deviceId = newDeviceId();
    await t.http.post('/api/admin/whatsapp/new-client').set(owner.auth).send({ deviceId });
    const qr = await t.http.get(`/api/admin/whatsapp/qr-new-client/${deviceId}`).set(owner.auth);
    const before = await t.http.get(`/api/admin/whatsapp/client-state/${deviceId}`).set(owner.auth);
    expect(before.body).toMatchObject({ state: 'QR', qr: qr.body.qr });
    await t.http.post('/api/sim/scan').set(SIM).send({ qr: qr.body.qr });
    const after = await eventually(
      () => t.http.get(`/api/admin/whatsapp/client-state/${deviceId}`).set(owner.auth),
      (r) => r.body.state === 'CONNECTED',
    );
    expect(after.body.state).toBe('CONNECTED');
  });

  it('refuses a phone number that is not 8–15 digits, and a WhatsApp ID already used', async () => {
    const bad = await t.http.post('/api/admin/whatsapp/new-client').set(owner.auth).send({ deviceId: newDeviceId(), phoneNumber: '62abc' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.phoneNumber).toBeTruthy();
    const used = await t.http.post('/api/admin/whatsapp/new-client').set(owner.auth).send({ deviceId: account.deviceId });
    expect(used.status).toBe(409);
  });

  it('save needs a linked device: an unscanned one is refused', async () => {
    const deviceId = newDeviceId();
    await t.http.post('/api/admin/whatsapp/new-client').set(owner.auth).send({ deviceId });
    const res = await t.http.post('/api/admin/whatsapp/save').set(owner.auth).send({ clientid: deviceId, phonenumber: '6280000000000' });
    expect(res.status).toBe(409);
  });

  it('remove-client ends a linking session: its QR no longer links', async () => {
    const deviceId = newDeviceId();
    await t.http.post('/api/admin/whatsapp/new-client').set(owner.auth).send({ deviceId });
    const qr = await t.http.get(`/api/admin/whatsapp/qr-new-client/${deviceId}`).set(owner.auth);
    expect((await t.http.post('/api/admin/whatsapp/remove-client').set(owner.auth).send({ deviceId })).status).toBe(200);
    expect((await t.http.post('/api/sim/scan').set(SIM).send({ qr: qr.body.qr })).status).toBe(404);
    expect((await t.http.get(`/api/admin/whatsapp/client-state/${deviceId}`).set(owner.auth)).status).toBe(404);
  });

  it('the identity saved is the gateway\'s, whatever the body claims', async () => {
    const deviceId = newDeviceId();
    await t.http.post('/api/admin/whatsapp/new-client').set(owner.auth).send({ deviceId });
    const qr = await t.http.get(`/api/admin/whatsapp/qr-new-client/${deviceId}`).set(owner.auth);
    await t.http.post('/api/sim/scan').set(SIM).send({ qr: qr.body.qr, phonenumber: '6281399990000', pushname: 'Asli' });
    await t.http.get(`/api/admin/whatsapp/listen-message-created/${deviceId}`).set(owner.auth);
    const saved = await t.http
      .post('/api/admin/whatsapp/save')
      .set(owner.auth)
      .send({ clientid: deviceId, phonenumber: '6280000000000', pushname: 'Palsu', user_id: other.id });
    expect(saved.body.whatsapp).toMatchObject({ phonenumber: '6281399990000', pushname: 'Asli', user_id: owner.id });
  });

  it('reconnect (r) moves the same account row to the newly linked device', async () => {
    const old = await linkByQr(t, owner, { phonenumber: '6281366660000' });
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: old.deviceId, state: 'loggedOut' });
    await eventually(() => t.http.get(`/api/admin/whatsapp/${old.id}`).set(owner.auth), (r) => r.body.whatsapp.state === 'loggedOut');
    const again = await linkByQr(t, owner, { phonenumber: '6281366660000', reconnect: old.id });
    expect(again.id).toBe(old.id);
    expect(again.deviceId).not.toBe(old.deviceId);
    const row = await eventually(
      () => t.http.get(`/api/admin/whatsapp/${old.id}`).set(owner.auth),
      (r) => r.body.whatsapp.state === 'connected',
    );
    expect(row.body.whatsapp).toMatchObject({ clientid: again.clientid, state: 'connected' });
  });

  it('a conflicted account reconnects in place (new-client with its own device id)', async () => {
    const acc = await linkByQr(t, owner);
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: acc.deviceId, state: 'conflict' });
    await eventually(() => t.http.get(`/api/admin/whatsapp/${acc.id}`).set(owner.auth), (r) => r.body.whatsapp.state === 'conflict');
    const res = await t.http
      .post('/api/admin/whatsapp/new-client')
      .set(owner.auth)
      .send({ deviceId: acc.deviceId, previousDeviceId: acc.deviceId, userId: owner.id });
    expect(res.status).toBe(200);
    const row = await eventually(() => t.http.get(`/api/admin/whatsapp/${acc.id}`).set(owner.auth), (r) => r.body.whatsapp.state === 'connected');
    expect(row.body.whatsapp.state).toBe('connected');
  });

  it('staff link their own accounts (for generator and validator jobs)', async () => {
    const acc = await linkByQr(t, staff);
    expect(acc.user_id).toBe(staff.id);
    const list = await t.http.get(`/api/admin/whatsapp/list/${staff.id}`).set(staff.auth);
    expect(list.body.list.map((a: { id: number }) => a.id)).toEqual([acc.id]);
  });
});

describe('ownership: another member never reaches an account', () => {
  it('linking calls on someone else\'s device answer 404', async () => {
    const deviceId = newDeviceId();
    await t.http.post('/api/admin/whatsapp/new-client').set(owner.auth).send({ deviceId });
    for (const path of [`qr-new-client/${deviceId}`, `client-state/${deviceId}`, `listen-message-created/${deviceId}`, `client-state/${account.deviceId}`]) {
      const res = await t.http.get(`/api/admin/whatsapp/${path}`).set(other.auth);
      expect(res.status, path).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('2@');
    }
    expect((await t.http.post('/api/admin/whatsapp/remove-client').set(other.auth).send({ deviceId })).status).toBe(404);
    expect((await t.http.post('/api/admin/whatsapp/save').set(other.auth).send({ clientid: deviceId })).status).toBe(404);
    const taken = await t.http.post('/api/admin/whatsapp/new-client').set(other.auth).send({ deviceId });
    expect(taken.status).toBe(409);
    const hijack = await t.http.post('/api/admin/whatsapp/new-client').set(other.auth).send({ deviceId: account.deviceId, previousDeviceId: account.deviceId });
    expect(hijack.status).toBe(404);
  });

  it('row calls answer 403 and never the row', async () => {
    const calls = [
      t.http.get(`/api/admin/whatsapp/${account.id}`).set(other.auth),
      t.http.put('/api/admin/whatsapp/status').set(other.auth).send({ id: account.id, status: 'idle' }),
      t.http.put('/api/admin/whatsapp/interval').set(other.auth).send({ id: account.id, interval: 5 }),
      t.http.post('/api/admin/whatsapp/reset').set(other.auth).send({ id: account.id }),
      t.http.get(`/api/admin/whatsapp/list/${owner.id}`).set(other.auth),
      t.http.get(`/api/admin/whatsapp/count/${owner.id}`).set(other.auth),
      t.http.get(`/api/admin/whatsapp/list-per-page?user_id=${owner.id}`).set(other.auth),
      t.http.post('/api/admin/whatsapp/save').set(other.auth).send({ clientid: newDeviceId(), reconnect: account.id }),
    ];
    for (const res of await Promise.all(calls)) {
      expect([403, 404]).toContain(res.status);
      expect(JSON.stringify(res.body)).not.toContain(account.clientid);
    }
  });

  it('lists without a user id give a member only their own rows', async () => {
    const mineOther = await linkByQr(t, other);
    for (const path of ['/api/admin/whatsapp/list', `/api/admin/whatsapp/list/all`, '/api/admin/whatsapp/list-per-page', '/api/admin/whatsapp/list-per-page?user_id=null']) {
      const res = await t.http.get(path).set(other.auth);
      const rows = (res.body.list ?? res.body.data) as Array<{ id: number; user_id: number }>;
      expect(rows.map((r) => r.id), path).toEqual([mineOther.id]);
    }
    const counts = await t.http.get('/api/admin/whatsapp/count/all').set(other.auth);
    expect(counts.body.connectedCount + counts.body.disconnectedCount).toBe(1);
  });

  it('admin and dev see every account and any member\'s', async () => {
    for (const u of [admin, dev]) {
      const all = await t.http.get('/api/admin/whatsapp/list-per-page').set(u.auth);
      expect(all.body.meta.total).toBeGreaterThan(3);
      const one = await t.http.get(`/api/admin/whatsapp/list-per-page?user_id=${other.id}`).set(u.auth);
      expect(one.body.data.every((r: { user_id: number }) => r.user_id === other.id)).toBe(true);
      expect(one.body.data[0].user).toMatchObject({ id: other.id, firstname: other.row.firstname });
      expect((await t.http.get(`/api/admin/whatsapp/${account.id}`).set(u.auth)).body.whatsapp.id).toBe(account.id);
    }
  });
});
