import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, startTestApp, type TestApp, type TestUser } from '../helpers';
import { whatsapps } from '../../server/src/db/schema';
import { earn } from './money-fixtures';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

let device = 0;
async function account(userId: number, fields: Partial<typeof whatsapps.$inferInsert> = {}) {
  device += 1;
  await t.ctx.db.insert(whatsapps).values({ deviceId: `dev-${device}`, clientid: `client-${device}`, userId, ...fields });
}

const list = async (params: string, who: TestUser = admin) => {
  const res = await t.http.get(`/api/admin/users/members-per-page?${params}`).set(who.auth);
  expect(res.status).toBe(200);
  return res.body as { data: Array<{ id: number; email: string; whatsapps: number; income: number; createdAt: string }>; meta: { totalPages: number; total: number } };
};

describe('members list', () => {
  it('shows income, registration date and the WhatsApp count of each member', async () => {
    const m = await t.user('member', { firstname: 'Kolom', email: 'kolom@members.test' });
    await account(m.id);
    await account(m.id);
    await earn(t.ctx.db, m.id, 4, 60);
    const res = await list('page=1&search=kolom@members.test');
    expect(res.data).toHaveLength(1);
    expect(res.data[0]).toMatchObject({ id: m.id, whatsapps: 2, income: 240 });
    expect(Number.isNaN(Date.parse(res.data[0]!.createdAt))).toBe(false);
  });

  it('Filter Status: online, offline, sending and suspended', async () => {
    const tag = `flt${Date.now()}`;
    const online = await t.user('member', { firstname: `${tag}On`, email: `${tag}on@x.test` });
    const sending = await t.user('member', { firstname: `${tag}Send`, email: `${tag}send@x.test` });
    const suspended = await t.user('member', { firstname: `${tag}Susp`, email: `${tag}susp@x.test` });
    await account(sending.id, { status: 'sending', state: 'connected' });
    await account(suspended.id, { suspended: true, suspendedCount: 1 });
    await account(online.id);
    const s = t.socket(online.token);
    await connected(s);
    const names = async (status: string) =>
      (await list(`page=1&search=${tag}&status=${status}`)).data.map((u) => u.email).sort();
    expect(await names('online')).toEqual([`${tag}on@x.test`]);
    expect(await names('offline')).toEqual([`${tag}send@x.test`, `${tag}susp@x.test`]);
    expect(await names('sending')).toEqual([`${tag}send@x.test`]);
    expect(await names('suspended')).toEqual([`${tag}susp@x.test`]);
    expect(await names('')).toHaveLength(3);
    expect(await names('whatever')).toHaveLength(3);
    s.disconnect();
  });

  it('an empty search answers an empty page with one total page', async () => {
    const res = await list('page=1&search=nobody-has-this-name');
    expect(res.data).toEqual([]);
    expect(res.meta).toMatchObject({ total: 0, totalPages: 1 });
  });

  it('members and staff cannot list members', async () => {
    for (const role of ['member', 'staff'] as const) {
      const u = await t.user(role);
      expect((await t.http.get('/api/admin/users/members-per-page?page=1').set(u.auth)).status).toBe(403);
    }
  });
});

describe('member edit', () => {
  it('admin sets intervals and fee; numbers are required to be whole and min ≤ max', async () => {
    const m = await t.user('member');
    const ok = await t.http.put(`/api/admin/users/${m.id}`).set(admin.auth).send({ blast_interval_min: '4', blast_interval_max: '8', blast_fee: '90' });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ blast_interval_min: 4, blast_interval_max: 8, blast_fee: 90 });
    const text = await t.http.put(`/api/admin/users/${m.id}`).set(admin.auth).send({ blast_interval_min: 'abc', blast_interval_max: 8, blast_fee: 90 });
    expect(text.status).toBe(422);
    expect(text.body.errors.blast_interval_min).toBeTruthy();
    const order = await t.http.put(`/api/admin/users/${m.id}`).set(admin.auth).send({ blast_interval_min: 10, blast_interval_max: 8, blast_fee: 90 });
    expect(order.status).toBe(422);
    expect(order.body.msg).toMatch(/Interval Min/);
    const after = await t.http.get(`/api/admin/users/${m.id}`).set(admin.auth);
    expect(after.body.user).toMatchObject({ blast_interval_min: 4, blast_interval_max: 8, blast_fee: 90 });
    expect((await t.http.get('/api/admin/users/999999').set(admin.auth)).status).toBe(404);
  });
});
