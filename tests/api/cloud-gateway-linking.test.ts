import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp } from '../helpers';
import { one } from '../../server/src/db/raw';
import { whatsapps } from '../../server/src/db/schema';
import { decryptSecret } from '../../server/src/lib/secrets';
import { linkByQr } from './whatsapp-fixtures';
import { accountRow, admin, fake, link, member, NUMBERS, t, useCloudApp, WABA } from './cloud-fixtures';

useCloudApp();

describe('linking a WhatsApp Business number', () => {
  it('saves the number Graph reports, with the token encrypted and never answered', async () => {
    const res = await link(member, NUMBERS.link);
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('Akun WhatsApp berhasil disimpan');
    expect(res.body.whatsapp).toMatchObject({
      deviceId: `cloud-${NUMBERS.link.phoneNumberId}`,
      clientid: `cloud-${NUMBERS.link.phoneNumberId}`,
      phonenumber: '6281234500001',
      pushname: 'Toko Maju',
      server: 'c.us',
      serialized: '6281234500001@c.us',
      state: 'connected',
      user_id: member.id,
      gateway: 'cloud-api',
      quality_rating: 'YELLOW',
      messaging_tier: 'TIER_1K',
    });
    const asked = fake.requests.find((r) => r.method === 'GET' && r.phoneNumberId === NUMBERS.link.phoneNumberId)!;
    expect(asked.authorization).toBe(`Bearer ${NUMBERS.link.token}`);

    const row = await accountRow(res.body.whatsapp.id);
    expect(row.cloudPhoneNumberId).toBe(NUMBERS.link.phoneNumberId);
    expect(row.cloudWabaId).toBe(WABA);
    expect(row.cloudToken).toMatch(/^v1:/);
    expect(row.cloudToken).not.toContain(NUMBERS.link.token);
    expect(decryptSecret(t.ctx.config.secretKey, row.cloudToken!)).toBe(NUMBERS.link.token);
    expect(t.ctx.gateway.state(row.deviceId)).toBe('connected');

    const answers = [
      res,
      await t.http.get(`/api/admin/whatsapp/${row.id}`).set(member.auth),
      await t.http.get('/api/admin/whatsapp/list').set(member.auth),
      await t.http.get('/api/admin/whatsapp/list-per-page').set(admin.auth),
      await t.http.get(`/api/admin/whatsapp/client-state/${row.deviceId}`).set(member.auth),
    ];
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.text).not.toContain(NUMBERS.link.token);
      expect(a.text).not.toContain(row.cloudToken!);
    }
  });

  it('refuses the same number twice, a bad token, an unknown Phone Number ID and missing fields', async () => {
    const again = await link(admin, NUMBERS.link);
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('WhatsApp ID sudah dipakai');

    const badToken = await link(member, NUMBERS.mix, { accessToken: 'EAAGwrong' });
    expect(badToken.status).toBe(422);
    expect(badToken.body.errors).toEqual({ accessToken: 'Token akses tidak valid atau kedaluwarsa' });

    const unknown = await link(member, { phoneNumberId: '119999999999999', token: NUMBERS.mix.token });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ phoneNumberId: 'Phone Number ID tidak ditemukan' });

    const missing = await t.http.post('/api/admin/whatsapp/cloud-link').set(member.auth).send({ phoneNumberId: NUMBERS.mix.phoneNumberId });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['accessToken', 'wabaId']);
    expect(await one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.deviceId, `cloud-${NUMBERS.mix.phoneNumberId}`)))).toBeUndefined();
  });

  it('offers no QR code for a business number', async () => {
    const res = await t.http
      .post('/api/admin/whatsapp/new-client')
      .set(member.auth)
      .send({ deviceId: `cloud-${NUMBERS.mix.phoneNumberId}`, userId: member.id, previousDeviceId: null });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('Cloud API tidak mendukung QR code');
  });

  it('leaves accounts linked by QR code on the simulator beside it', async () => {
    const simulated = await linkByQr(t, member, { phonenumber: '6281277770009' });
    expect(simulated.state).toBe('connected');
    expect(t.ctx.gateway.kind).toBe('cloud-api');
    expect(t.ctx.gateway.state(simulated.deviceId)).toBe('connected');
    expect(t.ctx.gateway.inspect(simulated.deviceId)).not.toBeNull();
    const row = await accountRow(simulated.id);
    expect(row.gateway).toBe('simulator');
  });

  it('is refused when the server runs the simulator only', async () => {
    const sim = await startTestApp();
    try {
      const user = await sim.user('member');
      const res = await sim.http
        .post('/api/admin/whatsapp/cloud-link')
        .set(user.auth)
        .send({ phoneNumberId: NUMBERS.mix.phoneNumberId, wabaId: WABA, accessToken: NUMBERS.mix.token });
      expect(res.status).toBe(409);
      expect(res.body.msg).toBe('Cloud API tidak aktif di server ini');
    } finally {
      await sim.close();
    }
  });
});

describe('number checks on a business number', () => {
  it('refuses to start a generator or a validator', async () => {
    const linked = await link(admin, NUMBERS.jobs);
    expect(linked.status).toBe(200);
    const id = linked.body.whatsapp.id as number;
    const msg = 'Cloud API tidak dapat memeriksa nomor WhatsApp; gunakan akun yang ditautkan dengan QR code atau nomor';

    const generator = await t.http
      .post('/api/admin/generator/create')
      .set(admin.auth)
      .send({ start_number: '6281300000000', end_number: '6281300000009', whatsapp_id: id, b_insert: 0, interval_min: 0, interval_max: 0 });
    expect(generator.status).toBe(201);
    const g = await t.http.post('/api/admin/generator/start').set(admin.auth).send({ id: generator.body.generator.id });
    expect(g.status).toBe(409);
    expect(g.body.msg).toBe(msg);

    const validator = await t.http
      .post('/api/admin/validator/create')
      .set(admin.auth)
      .field('whatsapp_id', String(id))
      .field('b_insert', '0')
      .field('interval_min', '0')
      .field('interval_max', '0')
      .attach('file', Buffer.from('6281234567890\n6281234567891\n'), 'nomor.csv');
    expect(validator.status).toBe(201);
    const v = await t.http.post('/api/admin/validator/start').set(admin.auth).send({ id: validator.body.validator.id });
    expect(v.status).toBe(409);
    expect(v.body.msg).toBe(msg);
  });
});
