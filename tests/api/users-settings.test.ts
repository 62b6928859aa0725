import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, connected, type TestApp } from '../helpers';
import { levels } from '../../server/src/db/schema';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('users', () => {
  it('a member reads only their own user, with level and colour, never a password hash', async () => {
    await t.ctx.db.insert(levels).values({ name: 'Bronze', blastFee: 50, requirementBlast: 0 });
    const me = await t.user('member');
    const other = await t.user('member');
    const own = await t.http.get(`/api/admin/users/${me.id}`).set(me.auth);
    expect(own.status).toBe(200);
    expect(own.body.user.email).toBe(me.row.email);
    expect(own.body.level).toBe('Bronze');
    expect(own.body.color).toBe('#2C2C2C');
    expect(JSON.stringify(own.body)).not.toMatch(/scrypt|password/i);
    const theirs = await t.http.get(`/api/admin/users/${other.id}`).set(me.auth);
    expect(theirs.status).toBe(403);
    expect(theirs.body.user).toBeUndefined();
  });

  it('a member edits only profile fields of their own user', async () => {
    const me = await t.user('member');
    const other = await t.user('member');
    const res = await t.http
      .put(`/api/admin/users/${me.id}`)
      .set(me.auth)
      .send({ firstname: 'Baru', account_bank: 'BRI', account_number: '999', account_name: 'Baru' });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ firstname: 'Baru', account_bank: 'BRI', account_number: '999', role: 'member', blast_fee: null, blast_interval_min: null });
    // Role, fee and intervals of one's own account are refused, and nothing of the request is saved.
    const grab = await t.http
      .put(`/api/admin/users/${me.id}`)
      .set(me.auth)
      .send({ firstname: 'Lagi', role: 'admin', blast_fee: 999, blast_interval_min: 0 });
    expect(grab.status).toBe(403);
    const still = await t.http.get(`/api/admin/users/${me.id}`).set(me.auth);
    expect(still.body.user).toMatchObject({ firstname: 'Baru', role: 'member', blast_fee: null, blast_interval_min: null });
    const theirs = await t.http.put(`/api/admin/users/${other.id}`).set(me.auth).send({ firstname: 'Hacked' });
    expect(theirs.status).toBe(403);
    const check = await t.http.get(`/api/admin/users/${other.id}`).set(other.auth);
    expect(check.body.user.firstname).not.toBe('Hacked');
  });

  it('admin sets a member fee and intervals; min above max is refused', async () => {
    const admin = await t.user('admin');
    const m = await t.user('member');
    const ok = await t.http.put(`/api/admin/users/${m.id}`).set(admin.auth).send({ blast_interval_min: 3, blast_interval_max: 7, blast_fee: 120 });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ blast_interval_min: 3, blast_interval_max: 7, blast_fee: 120 });
    const fee = await t.http.get(`/api/admin/users/blast-fee/${m.id}`).set(admin.auth);
    expect(fee.body).toEqual({ blast_fee: 120 });
    const bad = await t.http.put(`/api/admin/users/${m.id}`).set(admin.auth).send({ blast_interval_min: 9, blast_interval_max: 2 });
    expect(bad.status).toBe(422);
    const after = await t.http.get(`/api/admin/users/${m.id}`).set(admin.auth);
    expect(after.body.user.blast_interval_min).toBe(3);
  });

  it('members and members-per-page list members only, paged by 10 and searchable', async () => {
    const admin = await t.user('admin');
    for (let i = 0; i < 12; i++) await t.user('member', { firstname: `Paged${i}`, email: `paged${i}@x.test` });
    const page1 = await t.http.get('/api/admin/users/members-per-page?page=1').set(admin.auth);
    expect(page1.status).toBe(200);
    expect(page1.body.data).toHaveLength(10);
    expect(page1.body.meta.totalPages).toBeGreaterThanOrEqual(2);
    expect(page1.body.data.every((u: { role: string }) => u.role === 'member')).toBe(true);
    const found = await t.http.get('/api/admin/users/members-per-page?page=1&search=paged1').set(admin.auth);
    expect(found.body.data.map((u: { email: string }) => u.email).sort()).toEqual(['paged10@x.test', 'paged11@x.test', 'paged1@x.test'].sort());
    const all = await t.http.get('/api/admin/users/members').set(admin.auth);
    expect(all.body.users.length).toBeGreaterThanOrEqual(12);
  });

  it('active counts members with an open socket', async () => {
    const admin = await t.user('admin');
    const m = await t.user('member');
    const before = (await t.http.get('/api/admin/users/active').set(admin.auth)).body.count as number;
    const s = t.socket(m.token);
    await connected(s);
    const during = (await t.http.get('/api/admin/users/active').set(admin.auth)).body.count as number;
    expect(during).toBe(before + 1);
    s.disconnect();
  });
});

describe('settings', () => {
  const good = {
    interval_min: 2,
    interval_max: 4,
    price: 60,
    bank_names: 'BCA, BNI',
    colors: '#111111, #222222',
    referral_percent: 5,
    info: 'Info baru',
    recipient_cooldown: 12,
  };

  it('everyone reads the settings with the spec defaults', async () => {
    const m = await t.user('member');
    const res = await t.http.get('/api/admin/setting/get').set(m.auth);
    expect(res.status).toBe(200);
    expect(res.body.setting).toMatchObject({ bank_names: 'BCA, MANDIRI, BRI', colors: '#2C2C2C, #3E3A32', referral_percent: 0 });
  });

  it('admin updates them; every field is required and ranges are checked', async () => {
    const admin = await t.user('admin');
    const ok = await t.http.put('/api/admin/setting/update').set(admin.auth).send(good);
    expect(ok.status).toBe(200);
    expect(ok.body.setting).toMatchObject(good);
    for (const field of ['interval_min', 'interval_max', 'price', 'bank_names', 'colors', 'referral_percent', 'info']) {
      const body: Record<string, unknown> = { ...good };
      delete body[field];
      const res = await t.http.put('/api/admin/setting/update').set(admin.auth).send(body);
      expect(res.status, field).toBe(422);
      expect(res.body.errors[field], field).toBeTruthy();
    }
    const pct = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...good, referral_percent: 101 });
    expect(pct.status).toBe(422);
    const order = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...good, interval_min: 9, interval_max: 1 });
    expect(order.status).toBe(422);
    const frac = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...good, interval_min: 1.5 });
    expect(frac.status).toBe(422);
    const now = await t.http.get('/api/admin/setting/get').set(admin.auth);
    expect(now.body.setting).toMatchObject(good);
  });

  it('a member cannot update settings', async () => {
    const m = await t.user('member');
    expect((await t.http.put('/api/admin/setting/update').set(m.auth).send(good)).status).toBe(403);
  });
});
