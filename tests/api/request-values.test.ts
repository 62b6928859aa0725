import fs from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bonuses, messageTemplates, users, validatorItems } from '../../server/src/db/schema';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { eventually, linkByQr } from './whatsapp-fixtures';
import { uploadValidator } from './generator-fixtures';

let t: TestApp;
let admin: TestUser;
let member: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  member = await t.user('member');
  await t.ctx.db.update(users).set({ accountBank: 'BCA', accountNumber: '1', accountName: 'M', income: 500_000 }).where(eq(users.id, member.id));
});
afterAll(() => t.close());

/** A new validator of a staff member's own linked account, with this CSV file. */
async function validatorFile(csv: string) {
  const staff = await t.user('staff');
  const account = await linkByQr(t, staff);
  return uploadValidator(t, staff, account.id, csv, 'v.csv');
}

const bonusCount = async () => (await t.ctx.db.select({ id: bonuses.id }).from(bonuses).where(eq(bonuses.userId, member.id))).length;
const SETTINGS = { interval_min: 1, interval_max: 2, price: 0, bank_names: 'BCA', colors: '#2C2C2C', referral_percent: 0, info: 'x', recipient_cooldown: 24 };

describe('numbers typed as text are read as decimal digits only', () => {
  it("'0x10', '1e5' and '12abc' are refused where a number is asked, and nothing is saved", async () => {
    const before = await bonusCount();
    for (const nominal of ['0x10', '1e3', '12abc', '0b11', 'Infinity']) {
      const res = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: member.id, nominal, reason: 'uji' });
      expect(res.status, nominal).toBe(422);
      expect(res.body.errors.nominal, nominal).toBeTruthy();
    }
    expect(await bonusCount()).toBe(before);

    const withdraw = await t.http.post('/api/admin/withdraw/request').set(member.auth).send({ nominal: '1e5' });
    expect(withdraw.status).toBe(422);
    expect(withdraw.body.errors.nominal).toBe('Minimal permintaan penarikan adalah Rp 10.000');

    const fee = await t.http.put(`/api/admin/users/${member.id}`).set(admin.auth).send({ blast_fee: '0x10' });
    expect(fee.status).toBe(422);
    expect(fee.body.errors.blast_fee).toBeTruthy();

    const level = await t.http.post('/api/admin/level/create').set(admin.auth).send({ name: 'Hex', blast_fee: '0x10', requirement_blast: '5' });
    expect(level.status).toBe(422);
    expect(level.body.errors.blast_fee).toBeTruthy();

    const price = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...SETTINGS, price: '1e3' });
    expect(price.status).toBe(422);
    expect(price.body.errors.price).toBeTruthy();
  });

  it("plain digits with spaces around them still count ('  5 ')", async () => {
    const before = await bonusCount();
    const res = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: ` ${member.id} `, nominal: '  5 ', reason: 'uji' });
    expect(res.status).toBe(201);
    expect(await bonusCount()).toBe(before + 1);
    const level = await t.http.post('/api/admin/level/create').set(admin.auth).send({ name: 'Teks', blast_fee: ' 10 ', requirement_blast: '5' });
    expect(level.status).toBe(201);
  });

  it("an id is digits only, and so is an amount: '1.234' is not member 1234, '1.000' is no nominal", async () => {
    const before = await bonusCount();
    for (const userId of [`1.${String(member.id).padStart(3, '0')}`, `${member.id} 0`]) {
      const res = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId, nominal: 5, reason: 'uji' });
      expect(res.status).toBe(422);
    }
    expect(await bonusCount()).toBe(before);
    const amount = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: member.id, nominal: '1.000', reason: 'uji' });
    expect(amount.status).toBe(422);
    expect(amount.body.errors.nominal).toBe('Write the amount in digits only, without separators (10000, not 10.000).');
    expect(await bonusCount()).toBe(before);
    // The same refusal on every amount field: a member's fee, a level, the settings' price.
    const fee = await t.http.put(`/api/admin/users/${member.id}`).set(admin.auth).send({ blast_fee: '1,000' });
    expect(fee.status).toBe(422);
    expect(fee.body.errors.blast_fee).toBe('Write the amount in digits only, without separators (10000, not 10.000).');
    const level = await t.http.post('/api/admin/level/create').set(admin.auth).send({ name: 'Titik', blast_fee: '1.000', requirement_blast: '5' });
    expect(level.status).toBe(422);
    expect(level.body.errors.blast_fee).toBe('Write the amount in digits only, without separators (10000, not 10.000).');
    const price = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...SETTINGS, price: '10.000' });
    expect(price.status).toBe(422);
    expect(price.body.errors.price).toBe('Write the amount in digits only, without separators (10000, not 10.000).');
  });

  it('ids in paths and pages in queries are digits: /level/0x1 is not level 1, ?page=0x2 is page 1', async () => {
    const [first] = (await t.http.get('/api/admin/level/list-per-page').set(admin.auth)).body.data as Array<{ id: number }>;
    expect((await t.http.get(`/api/admin/level/${first!.id}`).set(admin.auth)).status).toBe(200);
    expect((await t.http.get(`/api/admin/level/0x${first!.id.toString(16)}`).set(admin.auth)).status).toBe(404);
    expect((await t.http.get(`/api/admin/level/${first!.id}e0`).set(admin.auth)).status).toBe(404);
    const page = await t.http.get('/api/admin/message/list-per-page?page=0x2').set(admin.auth);
    expect(page.status).toBe(200);
    expect(page.body.meta.page).toBe(1);
    const account = await linkByQr(t, member);
    const recipients = await t.http.get(`/api/admin/messagelog/recipients/${account.id}?page=0x2`).set(member.auth);
    expect(recipients.status).toBe(200);
    expect(recipients.body.meta.page).toBe(1);
  });
});

describe('a NUL character in a request is refused, on every database alike', () => {
  it('in a JSON field: 422 naming the field, nothing saved', async () => {
    const before = await bonusCount();
    const res = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: member.id, nominal: 5, reason: '\u0000' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'text_nul', errors: { reason: 'Text may not contain NUL characters.' } });
    expect(await bonusCount()).toBe(before);
    const login = await t.http.post('/api/auth/login').send({ email: `admin@demo.test\u0000`, password: 'x' });
    expect(login.status).toBe(422);
    expect(login.body.errors.email).toBe('Text may not contain NUL characters.');
    // Deep inside a value, and in a key.
    const deep = await t.http.put(`/api/admin/users/${member.id}`).set(admin.auth).send({ firstname: 'A', extra: [[{ a: ['x\u0000'] }]] });
    expect(deep.status).toBe(422);
    expect(deep.body.errors.extra).toBeTruthy();
  });

  it('in a query or path: 400, not a server error', async () => {
    const search = await t.http.get('/api/admin/phonenumber/list-per-page?page=1&search=%00').set(admin.auth);
    expect(search.status).toBe(400);
    expect(search.body.code).toBe('text_nul');
    expect((await t.http.get('/api/admin/level/1%00').set(admin.auth)).status).toBe(400);
  });

  it('in a multipart form field: 422, and the uploaded file is not kept', async () => {
    const uploads = path.join(t.ctx.config.dataDir, 'uploads');
    const files = () => (fs.existsSync(uploads) ? fs.readdirSync(uploads).filter((f) => f.endsWith('.jpg')) : []);
    const before = files();
    const res = await t.http.post('/api/admin/message/create').set(admin.auth).field('name', 'a').field('text', 'Halo\u0000').attach('file', Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'a.jpg');
    expect(res.status).toBe(422);
    expect(res.body.errors.text).toBe('Text may not contain NUL characters.');
    expect(await t.ctx.db.select({ id: messageTemplates.id }).from(messageTemplates)).toHaveLength(0);
    await eventually(() => files(), (now) => now.length === before.length);
  });

  it('inside an imported template file: that template is skipped with the reason, the others are added', async () => {
    const file = JSON.stringify([{ text: 'Satu\u0000' }, { text: 'Dua' }]);
    const res = await t.http.post('/api/admin/message/import').set(admin.auth).attach('file', Buffer.from(file), 't.json');
    expect(res.status).toBe(200);
    expect(res.body.created).toHaveLength(1);
    expect(res.body.skipped).toEqual([{ index: 1, text: 'Satu', reason: 'Text may not contain NUL characters.', reasonCode: 'text_nul' }]);
  });

  it('inside a validator file: the NUL is dropped from the number and the name', async () => {
    const res = await validatorFile('number,name\n0812\u00003456\u00000001,Sa\u0000tu\n');
    expect(res.status).toBe(201);
    const rows = await t.ctx.db
      .select({ number: validatorItems.number, name: validatorItems.name, reason: validatorItems.reason })
      .from(validatorItems)
      .where(eq(validatorItems.validatorId, res.body.validator.id))
      .orderBy(asc(validatorItems.seq));
    expect(rows).toEqual([{ number: '6281234560001', name: 'Satu', reason: null }]);
  });
});

describe('a CSV cell with text after its closing quote', () => {
  const file = 'number,name\n081234567921,"Budi" Santoso\n081234567922,Ani\n081234567923,Citra\n081234567924,"Dedi"\n081234567925,Eko\n';
  const message = 'File CSV tidak valid: tanda kutip (") di baris ke-2 diikuti teks lain sebelum pemisah.';

  it('refuses the phone number import and adds nothing, rather than swallowing the rows after it', async () => {
    const before = (await t.http.get('/api/admin/phonenumber/list-per-page?page=1').set(admin.auth)).body.meta.total;
    const res = await t.http.post('/api/admin/phonenumber/import').set(admin.auth).attach('file', Buffer.from(file), 'n.csv');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ msg: message, code: 'csv_misplaced_quote' });
    expect((await t.http.get('/api/admin/phonenumber/list-per-page?page=1').set(admin.auth)).body.meta.total).toBe(before);
  });

  it('refuses the validator file under its field', async () => {
    const res = await validatorFile(file);
    expect(res.status).toBe(422);
    expect(res.body.errors.file).toBe(message);
  });
});
