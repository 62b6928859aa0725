import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SIM, startTestApp, type TestApp, type TestUser } from '../helpers';
import { linkByQr, newDeviceId, type LinkedAccount } from './whatsapp-fixtures';
import { uploadValidator } from './generator-fixtures';
import { classifyStep } from '../../server/src/phonenumbers/renormalize';
import { asc, eq } from 'drizzle-orm';
import { phoneNumbers, validatorItems } from '../../server/src/db/schema';
import { one } from '../../server/src/db/raw';
import { SimulatorGateway } from '../../server/src/gateway/simulator/simulator';

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let account: LinkedAccount;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  staff = await t.user('staff');
  account = await linkByQr(t, staff);
});
afterAll(() => t.close());

const SETTINGS = { interval_min: 1, interval_max: 2, price: 0, bank_names: 'BCA', colors: '#2C2C2C', referral_percent: 0, info: 'x', recipient_cooldown: 24 };
const setCountry = (code: unknown) => t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...SETTINGS, default_country: code });
const save = (number: string, name = 'Uji') => t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number, name });
const rowOf = (number: string) => one(t.ctx.db.select({ id: phoneNumbers.id, line_type: phoneNumbers.lineType }).from(phoneNumbers).where(eq(phoneNumbers.number, number)));

describe("setting 'Kode Negara Default'", () => {
  it('defaults to ID, accepts a known ISO code in any case and refuses others with a field error', async () => {
    const start = await t.http.get('/api/admin/setting/get').set(admin.auth);
    expect(start.body.setting.default_country).toBe('ID');
    expect((await t.http.get('/api/config')).body.defaultCountry).toBe('ID');
    for (const bad of ['XX', 'IDN', '', 7]) {
      const res = await setCountry(bad);
      expect(res.status, String(bad)).toBe(422);
      expect(res.body.errors.default_country).toContain('Kode Negara Default');
    }
    expect((await setCountry(' my ')).body.setting.default_country).toBe('MY');
    expect((await t.http.get('/api/config')).body.defaultCountry).toBe('MY');
    // A client that does not send the field keeps the stored country.
    await t.http.put('/api/admin/setting/update').set(admin.auth).send(SETTINGS).expect(200);
    expect((await t.http.get('/api/admin/setting/get').set(admin.auth)).body.setting.default_country).toBe('MY');
    // Numbers without a country code now belong to Malaysia.
    const my = await save('012-345 6789', 'Malaysia');
    expect(my.status).toBe(201);
    expect(my.body.phoneNumber).toMatchObject({ number: '60123456789', line_type: 'mobile' });
    await setCountry('ID').expect(200);
  });
});

describe('manual save and edit', () => {
  it('recovers a dropped zero, records the line type and refuses numbers outside the plan', async () => {
    const mobile = await save('812-3456-7890', 'Tanpa Nol');
    expect(mobile.status).toBe(201);
    expect(mobile.body.phoneNumber).toMatchObject({ number: '6281234567890', line_type: 'mobile' });
    const landline = await save('(021) 5550-1234', 'Kantor');
    expect(landline.body.phoneNumber).toMatchObject({ number: '622155501234', line_type: 'fixed_line' });
    const foreign = await save('+44 7400 123456', 'London');
    expect(foreign.body.phoneNumber).toMatchObject({ number: '447400123456', line_type: 'mobile' });
    for (const bad of ['0804 1234', '6281', '+62 800']) {
      const res = await save(bad);
      expect(res.status, bad).toBe(422);
      expect(res.body.errors.number).toMatch(/tidak valid/);
    }
    expect(await rowOf('6281')).toBeUndefined();
  });

  it('edits normalise the new number; the stored number sent back stays as it is', async () => {
    const foreign = (await rowOf('447400123456'))!;
    const same = await t.http.put(`/api/admin/phonenumber/${foreign.id}`).set(admin.auth).send({ number: '447400123456', name: 'London 2', status: 'active' });
    expect(same.status).toBe(200);
    expect(same.body.phoneNumber).toMatchObject({ number: '447400123456', name: 'London 2', line_type: 'mobile' });
    const moved = await t.http.put(`/api/admin/phonenumber/${foreign.id}`).set(admin.auth).send({ number: '0813 1111 2222', name: 'Pindah', status: 'active' });
    expect(moved.body.phoneNumber).toMatchObject({ number: '6281311112222', line_type: 'mobile' });
    const bad = await t.http.put(`/api/admin/phonenumber/${foreign.id}`).set(admin.auth).send({ number: '0804', name: 'x', status: 'active' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.number).toMatch(/tidak valid/);
  });

  it('the list filters on line_type and refuses an unknown one', async () => {
    const fixed = await t.http.get('/api/admin/phonenumber/list-per-page?line_type=fixed_line').set(admin.auth);
    expect(fixed.status).toBe(200);
    expect(fixed.body.data.map((r: { number: string }) => r.number)).toEqual(['622155501234']);
    expect(fixed.body.meta.total).toBe(1);
    const mobileSearch = await t.http.get('/api/admin/phonenumber/list-per-page?line_type=mobile&search=0812').set(admin.auth);
    expect(mobileSearch.body.data.map((r: { number: string }) => r.number)).toEqual(['6281234567890']);
    const all = await t.http.get('/api/admin/phonenumber/list-per-page').set(admin.auth);
    expect(all.body.meta.total).toBeGreaterThanOrEqual(4);
    const bad = await t.http.get('/api/admin/phonenumber/list-per-page?line_type=satelit').set(admin.auth);
    expect(bad.status).toBe(422);
  });
});

describe('import call site', () => {
  it('reads numbers with the default country, skips invalid ones as "nomor tidak valid" and records the line type', async () => {
    const csv = 'number,name\n813-7777-0001,Satu\n+62 21 5550 7777,Dua\n0804 1,Salah\n';
    const res = await t.http.post('/api/admin/phonenumber/import').set(admin.auth).attach('file', Buffer.from(csv), 'n.csv');
    expect(res.status).toBe(200);
    expect(res.body.created.map((r: { number: string }) => r.number).sort()).toEqual(['622155507777', '6281377770001']);
    expect(res.body.skipped).toEqual([expect.objectContaining({ number: '0804 1', reason: 'nomor tidak valid' })]);
    // Recorded by the import itself: the rows are in the 'Jenis Nomor' filter at once.
    expect(res.body.created.map((r: { line_type: string }) => r.line_type).sort()).toEqual(['fixed_line', 'mobile']);
    expect((await rowOf('6281377770001'))?.line_type).toBe('mobile');
    expect((await rowOf('622155507777'))?.line_type).toBe('fixed_line');
  });
});

describe('rows stored without a line type', () => {
  it('are classified in steps between requests', async () => {
    await t.ctx.db.insert(phoneNumbers).values([
      { number: '6281377770099', name: 'Tanpa Jenis 1' },
      { number: '622155507799', name: 'Tanpa Jenis 2' },
    ]);
    while ((await classifyStep(t.ctx.db)) > 0);
    expect((await rowOf('6281377770099'))?.line_type).toBe('mobile');
    expect((await rowOf('622155507799'))?.line_type).toBe('fixed_line');
  });
});

describe('generator ranges', () => {
  const create = (start: string, end: string) =>
    t.http.post('/api/admin/generator/create').set(staff.auth).send({ start_number: start, end_number: end, whatsapp_id: account.id, b_insert: 0, interval_min: 0, interval_max: 0 });

  it('takes a range inside the plan written nationally, and refuses one that leaves it', async () => {
    const ok = await create('813-0000-5000', '0813 0000 5009');
    expect(ok.status).toBe(201);
    expect(ok.body.generator).toMatchObject({ start_number: '6281300005000', end_number: '6281300005009' });
    // 0839 9999 999x is mobile, 0840… is no Indonesian number.
    const across = await create('0839 9999 9995', '0840 0000 0004');
    expect(across.status).toBe(422);
    expect(across.body.errors.end_number).toMatch(/^Target Nomor Akhir: Nomor telepon tidak valid/);
    expect(across.body.errors.start_number).toBeUndefined();
    const lengths = await create('0812 3456 789', '0812 3456 7890');
    expect(lengths.status).toBe(422);
    expect(lengths.body.msg).toBe('Target Nomor Awal dan Akhir harus dari negara yang sama dan sama panjang.');
    const invalid = await create('0804 0000', '0804 0009');
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.start_number).toMatch(/^Target Nomor Awal: Nomor telepon tidak valid/);
  });
});

describe('validator files', () => {
  it('normalises rows with the default country and counts numbers outside the plan as "nomor tidak valid"', async () => {
    const csv = 'number,name\n812-3456-0001,Satu\n+62 812 3456 0002,Dua\n0804 1234,Salah\n';
    const res = await uploadValidator(t, staff, account.id, csv, 'v.csv');
    expect(res.status).toBe(201);
    const rows = await t.ctx.db
      .select({ number: validatorItems.number, reason: validatorItems.reason })
      .from(validatorItems)
      .where(eq(validatorItems.validatorId, res.body.validator.id))
      .orderBy(asc(validatorItems.seq));
    expect(rows).toEqual([
      { number: '6281234560001', reason: null },
      { number: '6281234560002', reason: null },
      { number: '0804 1234', reason: 'nomor tidak valid' },
    ]);
  });
});

describe('Blaster receivers', () => {
  it('reads typed receivers with the default country, takes listed numbers as stored and skips invalid ones', async () => {
    await save('+44 7400 555555', 'Listed London').expect(201);
    const res = await t.http
      .post('/api/admin/whatsapp/send-message/1')
      .set(admin.auth)
      .send({ senders: String(account.id), targets: ['812-3456-7890', '447400555555', '447400999999', '0804'], message: 'Halo {name}' });
    expect(res.status).toBe(200);
    // Typed without '+', 447400999999 is read as an Indonesian national number, which it is not.
    expect(res.body.skipped).toEqual([
      { number: '447400999999', reason: 'nomor tidak valid' },
      { number: '0804', reason: 'nomor tidak valid' },
    ]);
    const attempted = res.body.sent + res.body.failed.length;
    expect(attempted).toBe(2);
    const failedNumbers = res.body.failed.map((f: { number: string }) => f.number);
    const sim = t.ctx.gateway as SimulatorGateway;
    for (const n of ['6281234567890', '447400555555']) expect(sim.inboxes.list(n).length > 0 || failedNumbers.includes(n)).toBe(true);
  });
});

describe('sign-up phone login and the simulator', () => {
  it('pairing by number takes a national number and refuses one outside the plan with a field error', async () => {
    const bad = await t.http.post('/api/admin/whatsapp/new-client').set(staff.auth).send({ deviceId: newDeviceId(), phoneNumber: '0804 12' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.phoneNumber).toMatch(/tidak valid/);
    const deviceId = newDeviceId();
    const ok = await t.http.post('/api/admin/whatsapp/new-client').set(staff.auth).send({ deviceId, phoneNumber: '812-9999-0001' });
    expect(ok.status).toBe(200);
    const sim = t.ctx.gateway as SimulatorGateway;
    await vi.waitFor(() => expect(sim.device(deviceId)?.login).toMatchObject({ method: 'code', phoneNumber: '6281299990001' }));
  });

  it('the simulated network knows only numbers of the plan', async () => {
    const check = await t.ctx.gateway.checkNumber(account.deviceId, '6280400000000');
    expect(check).toEqual({ ok: false, error: 'invalid_number' });
    const reply = await t.http.post('/api/sim/reply').set(SIM).send({ from: '0804 1', deviceId: account.deviceId, text: 'halo' });
    expect(reply.status).toBe(422);
    const fine = await t.http.post('/api/sim/reply').set(SIM).send({ from: '813-7777-0001', deviceId: account.deviceId, text: 'halo' });
    expect(fine.status).toBe(200);
    const inbox = (t.ctx.gateway as SimulatorGateway).inboxes.list(account.phonenumber);
    expect(inbox.find((m) => m.id === fine.body.message.id)?.from).toBe('6281377770001');
  });
});
