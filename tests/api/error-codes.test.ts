import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers';
import { setBank } from './money-fixtures';

let t: TestApp;
const settings = {
  interval_min: 3,
  interval_max: 9,
  price: 45,
  bank_names: 'BCA, BNI',
  colors: '#123456, #abcdef',
  referral_percent: 12,
  info: 'Pengumuman',
  recipient_cooldown: 48,
};
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('error answers carry a stable code next to the unchanged msg', () => {
  it('a service error: bonus to a non-member', async () => {
    const admin = await t.user('admin');
    const staff = await t.user('staff');
    const res = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: staff.id, nominal: 100, reason: 'x' });
    expect(res.status).toBe(422);
    expect(res.body.msg).toBe('Bonus can only be sent to a member.');
    expect(res.body.code).toBe('bonus_member_only');
    expect(res.body.errors.userId).toBe('Bonus can only be sent to a member.');
  });

  it('a validation error: the first field message gives the code, field errors stay', async () => {
    const res = await t.http.post('/api/auth/register').send({
      firstName: 'A',
      lastName: 'B',
      email: `short-${Date.now()}@test.local`,
      password: 'short',
      password2: 'short',
      agreeToTerms: true,
    });
    expect(res.status).toBe(422);
    expect(res.body.msg).toBe('Password must be at least 8 characters.');
    expect(res.body.code).toBe('password_too_short');
    expect(res.body.errors.password).toBe('Password must be at least 8 characters.');
  });

  it('settings colours, unknown user, sign-in and routing errors', async () => {
    const admin = await t.user('admin');
    const colors = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...settings, colors: 'red' });
    expect(colors.status).toBe(422);
    expect(colors.body.msg).toMatch(/^Colors must be hex colours/);
    expect(colors.body.code).toBe('colors_invalid');

    const user = await t.http.get('/api/admin/users/999999').set(admin.auth);
    expect(user.status).toBe(404);
    expect(user.body).toEqual({ msg: 'User not found', code: 'user_not_found' });

    const login = await t.http.post('/api/auth/login').send({ email: 'nobody@test.local', password: 'password123' });
    expect(login.status).toBe(401);
    expect(login.body.code).toBe('invalid_credentials');

    const noToken = await t.http.get('/api/admin/users/1');
    expect(noToken.body).toEqual({ msg: 'Authorization token is missing', code: 'token_missing' });

    const unknown = await t.http.get('/api/nothing-here').set(admin.auth);
    expect(unknown.body).toEqual({ msg: 'Unknown API route', code: 'unknown_route' });
  });

  it('a field-label pattern gives its code; a spec numeric code is kept as the number', async () => {
    const admin = await t.user('admin');
    const price = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...settings, price: 1.5 });
    expect(price.status).toBe(422);
    expect(price.body.msg).toBe('Price must be a whole number.');
    expect(price.body.code).toBe('field_whole');

    const member = await t.user('member');
    const withdraw = await t.http.post('/api/admin/withdraw/request').set(member.auth).send({ nominal: 10000 });
    expect(withdraw.status).toBe(422);
    expect(withdraw.body.code).toBe(1);
  });

  it("the spec's Indonesian messages keep their text and gain a code: withdraw, generator, Cloud API", async () => {
    const member = await t.user('member');
    const small = await t.http.post('/api/admin/withdraw/request').set(member.auth).send({ nominal: 5000 });
    expect(small.status).toBe(422);
    expect(small.body).toMatchObject({ msg: 'Minimal permintaan penarikan adalah Rp 10.000', code: 'withdraw_minimum' });

    await setBank(t.ctx.db, member.id);
    const poor = await t.http.post('/api/admin/withdraw/request').set(member.auth).send({ nominal: 10000 });
    expect(poor.status).toBe(422);
    expect(poor.body).toMatchObject({ msg: 'Saldo tidak mencukupi untuk permintaan penarikan ini.', code: 'withdraw_no_balance' });

    const staff = await t.user('staff');
    const range = await t.http.post('/api/admin/generator/create').set(staff.auth).send({ start_number: 'abc', end_number: '6281300000009', whatsapp_id: 999999, b_insert: true });
    expect(range.status).toBe(422);
    expect(range.body.msg).toMatch(/^Target Nomor Awal: /);
    expect(range.body.code).toBe('start_number_reason');

    const admin = await t.user('admin');
    const zodOwn = await t.http.get('/api/admin/phonenumber/list-per-page?line_type=satelit').set(admin.auth);
    expect(zodOwn.status).toBe(422);
    expect(zodOwn.body.code).toBe('invalid_request');

    const cloud = await t.http.post('/api/admin/whatsapp/cloud-link').set(member.auth).send({ phoneNumberId: '106540352242922', wabaId: '102290129340398', accessToken: 'EAAG' });
    expect(cloud.status).toBe(409);
    expect(cloud.body).toEqual({ msg: 'Cloud API tidak aktif di server ini', code: 'cloud_inactive' });
  });

  it('a withdraw decision answers its message with a code the console translates', async () => {
    const admin = await t.user('admin');
    const member = await t.user('member');
    await setBank(t.ctx.db, member.id);
    await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: member.id, nominal: 20000, reason: 'modal' }).expect(201);
    const asked = await t.http.post('/api/admin/withdraw/request').set(member.auth).send({ nominal: 10000 });
    expect(asked.status).toBeLessThan(300);
    const id = asked.body.withdraw.id;
    const accepted = await t.http.put('/api/admin/withdraw/update').set(admin.auth).send({ id, status: 'accepted' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ msg: 'Permintaan withdraw Diterima', code: 'withdraw_accepted' });
    const again = await t.http.put('/api/admin/withdraw/update').set(admin.auth).send({ id, status: 'rejected' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ msg: 'Status accepted tidak dapat diubah menjadi rejected.', code: 'withdraw_status_change' });
  });
});
