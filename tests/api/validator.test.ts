import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser, SIM } from '../helpers';
import { optOuts, phoneNumbers } from '../../server/src/db/schema';
import { DISCONNECTED_MESSAGE, INTERVAL_ORDER_MESSAGE } from '../../common/jobs';
import { eventually, linkByQr, type LinkedAccount } from './whatsapp-fixtures';
import { finished, jobUntil, rangeOf, record, registeredIn, uploadValidator } from './generator-fixtures';

let t: TestApp;
let staff: TestUser;
let otherStaff: TestUser;
let member: TestUser;
let admin: TestUser;
let account: LinkedAccount;

beforeAll(async () => {
  t = await startTestApp();
  staff = await t.user('staff');
  otherStaff = await t.user('staff');
  member = await t.user('member');
  admin = await t.user('admin');
  account = await linkByQr(t, staff);
});
afterAll(() => t.close());

const upload = (user: TestUser, content: string | Buffer, fileName: string, fields: Record<string, string> = {}) => uploadValidator(t, user, account.id, content, fileName, fields);

async function runToEnd(id: number) {
  await t.http.post('/api/admin/validator/start').set(staff.auth).send({ id }).expect(200);
  return jobUntil(t.http, staff.auth, 'validator', id, finished);
}

describe('validator from a CSV file', () => {
  it('checks every row in file order; invalid and repeated rows count as Gagal with their reason', async () => {
    const numbers = rangeOf('6282100000000', 12);
    const lines = [
      'number;name',
      ...numbers.slice(0, 6).map((n, i) => `${n};Kontak ${i}`),
      `0${numbers[6]!.slice(2)};Kontak Nol`,
      '12ab34;Rusak',
      `${numbers[0]};Dobel`,
      ';Kosong',
      ...numbers.slice(7),
    ];
    const csv = `\uFEFF${lines.join('\r\n')}\r\n`;
    const live = await record(t, staff);
    const created = await upload(staff, csv, 'daftar-nomor-pelanggan-jakarta.csv');
    expect(created.status).toBe(201);
    const v = created.body.validator;
    expect(v).toMatchObject({ total: 15, checked: 0, progress: 0, fileName: 'daftar-nomor-pelanggan-jakarta.csv', status: 'idle', interval_min: 0 });
    expect(v.fileUrl).toMatch(/^\/uploads\/validators\/.+\.csv$/);
    // A contact list: the validator roles download it (the list's link sends the authToken cookie), nobody else.
    expect((await t.http.get(v.fileUrl)).status).toBe(404);
    expect((await t.http.get(v.fileUrl).set('Cookie', `authToken=${encodeURIComponent(staff.token)}`)).text).toContain('number;name');
    const served = await t.http.get(v.fileUrl).set(staff.auth);
    expect(served.status).toBe(200);
    expect(served.text).toContain('number;name');
    expect((await t.http.get(v.fileUrl).set((await t.user('member')).auth)).status).toBe(404);
    // Spellings of the same file that the static server decodes or normalises are guarded alike.
    const name = v.fileUrl.slice('/uploads/validators/'.length);
    for (const spelling of [`/uploads/%76alidators/${name}`, `/uploads//validators/${name}`, `/uploads/./validators/${name}`, `/uploads/x/../validators/${name}`, `/uploads/validators%2F${name}`]) {
      expect(await rawGet(spelling), spelling).toBe(404);
    }

    const done = await runToEnd(v.id);
    const valid = numbers.slice(0, 12);
    const registered = registeredIn(t.ctx.gateway, valid);
    expect(done).toMatchObject({ checked: 15, progress: 100, count_success: registered.length, count_fail: 15 - registered.length });
    const detail = await t.http.get(`/api/admin/validator/${v.id}`).set(staff.auth);
    expect(detail.body.validator.failReasons).toMatchObject({ 'nomor tidak valid': 2, 'repeated in the file': 1 });

    const result = await t.http.get(`/api/admin/validator/download-result/${v.id}`).set(staff.auth);
    const fileNames = new Map(numbers.slice(0, 6).map((n, i) => [n, `Kontak ${i}`]));
    fileNames.set(numbers[6]!, 'Kontak Nol');
    expect(result.body.list).toEqual(registered.map((r) => ({ number: r.number, name: fileNames.get(r.number) ?? r.name })));

    // The last event may still wait for its channel's batch window when the job reads finished.
    const mine = await eventually(() => live.messages.filter((m) => m.data.job === 'validator' && m.data.id === v.id), (m) => m.some((x) => x.event === 'finished'));
    const events = mine.map((m) => m.event);
    expect(events[0]).toBe('validating');
    expect(events.at(-1)).toBe('finished');
  });

  it('with b_insert adds the registered numbers that are new, never an opted-out one', async () => {
    const numbers = rangeOf('6282200000000', 20);
    const registered = registeredIn(t.ctx.gateway, numbers);
    const [existing, optedOut] = registered;
    await t.ctx.db.insert(phoneNumbers).values({ number: existing!.number, name: 'Lama' });
    await t.ctx.db.insert(optOuts).values({ number: optedOut!.number, reason: 'STOP' });
    const created = await upload(staff, numbers.join('\n'), 'nomor.csv', { b_insert: '1' });
    expect(created.status).toBe(201);
    await runToEnd(created.body.validator.id);
    const listed = await t.ctx.db.select().from(phoneNumbers).where(inArray(phoneNumbers.number, numbers));
    const fresh = registered.filter((r) => r !== existing && r !== optedOut);
    expect(listed.map((p) => p.number).sort()).toEqual([existing!.number, ...fresh.map((r) => r.number)].sort());
    const detail = await t.http.get(`/api/admin/validator/${created.body.validator.id}`).set(staff.auth);
    expect(detail.body.validator.count_success).toBe(registered.length);
  });
});

describe('validator from a JSON file', () => {
  it('reads an array of strings or of {number, name}', async () => {
    const numbers = rangeOf('6282300000000', 6);
    const json = JSON.stringify([numbers[0], { number: numbers[1], name: 'Ani' }, { number: `+${numbers[2]}` }, 6282300000003, { name: 'tanpa nomor' }, 'bukan nomor']);
    const created = await upload(staff, json, 'kontak.json');
    expect(created.status).toBe(201);
    expect(created.body.validator.total).toBe(6);
    const done = await runToEnd(created.body.validator.id);
    const registered = registeredIn(t.ctx.gateway, numbers.slice(0, 4));
    expect(done).toMatchObject({ count_success: registered.length, count_fail: 6 - registered.length });
    const detail = await t.http.get(`/api/admin/validator/${created.body.validator.id}`).set(staff.auth);
    expect(detail.body.validator.failReasons['nomor tidak valid']).toBe(2);
  });
});

describe('validator upload rules', () => {
  it('needs a .csv or .json file within 10 MB and 100,000 numbers', async () => {
    let req = t.http.post('/api/admin/validator/create').set(staff.auth).field('whatsapp_id', String(account.id));
    const none = await req;
    expect(none.status).toBe(422);
    expect(none.body.errors.file).toBeTruthy();
    const wrong = await upload(staff, '6281234567890', 'nomor.txt');
    expect(wrong.status).toBe(422);
    expect(wrong.body.msg).toMatch(/\.csv atau \.json/);
    const empty = await upload(staff, 'number,name\r\n', 'kosong.csv');
    expect(empty.status).toBe(422);
    const badJson = await upload(staff, '{"number":', 'rusak.json');
    expect(badJson.status).toBe(422);
    const big = await upload(staff, Buffer.alloc(10 * 1024 * 1024 + 10, 0x31), 'besar.csv');
    expect(big.status).toBe(413);
    expect(big.body.msg).toMatch(/10 MB/);
    const lines = Array.from({ length: 100_001 }, (_, i) => String(6282400000000 + i)).join('\n');
    const many = await upload(staff, lines, 'banyak.csv');
    expect(many.status).toBe(422);
    expect(many.body.msg).toMatch(/100\.000/);
    const interval = await upload(staff, '6281234567890', 'a.csv', { interval_min: '3', interval_max: '1' });
    expect(interval.body.msg).toBe(INTERVAL_ORDER_MESSAGE);
    req = t.http.post('/api/admin/validator/create');
    expect((await req.attach('file', Buffer.from('6281234567890'), 'a.csv')).status).toBe(401);
    const dir = path.join(t.ctx.config.dataDir, 'uploads', 'validators');
    const kept = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    expect(kept.some((f) => f.endsWith('.txt'))).toBe(false);
  });

  it('accepts exactly 100,000 numbers', async () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => String(6282500000000 + i)).join('\n');
    const res = await upload(staff, lines, 'seratus-ribu.csv');
    expect(res.status).toBe(201);
    expect(res.body.validator.total).toBe(100_000);
    await t.http.delete(`/api/admin/validator/${res.body.validator.id}`).set(staff.auth).expect(200);
  });

  it('edits intervals, account and b_insert as multipart; a file on update is refused', async () => {
    const created = await upload(staff, '6281234567890', 'satu.csv');
    const id = created.body.validator.id as number;
    const edited = await t.http.put(`/api/admin/validator/${id}`).set(staff.auth).field('whatsapp_id', String(account.id)).field('b_insert', '1').field('interval_min', '2').field('interval_max', '4');
    expect(edited.status).toBe(200);
    expect(edited.body.validator).toMatchObject({ b_insert: 1, interval_min: 2, interval_max: 4, fileName: 'satu.csv' });
    const withFile = await t.http.put(`/api/admin/validator/${id}`).set(staff.auth).field('whatsapp_id', String(account.id)).attach('file', Buffer.from('1'), 'x.csv');
    expect(withFile.status).toBe(422);
  });

  it('delete removes the job, its rows and its file', async () => {
    const created = await upload(staff, '6281234567890', 'hapus.csv');
    const v = created.body.validator;
    const file = path.join(t.ctx.config.dataDir, v.fileUrl);
    expect(fs.existsSync(file)).toBe(true);
    await t.http.delete(`/api/admin/validator/${v.id}`).set(staff.auth).expect(200);
    expect((await t.http.get(`/api/admin/validator/${v.id}`).set(staff.auth)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 100));
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('validator roles and ownership', () => {
  it('members are refused; staff reach only their own validators; admin reaches all', async () => {
    expect((await t.http.get('/api/admin/validator/list-per-page').set(member.auth)).status).toBe(403);
    const created = await upload(staff, '6281234567890', 'milik-staf.csv');
    const id = created.body.validator.id as number;
    for (const res of [
      await t.http.get(`/api/admin/validator/${id}`).set(otherStaff.auth),
      await t.http.post('/api/admin/validator/start').set(otherStaff.auth).send({ id }),
      await t.http.get(`/api/admin/validator/download-result/${id}`).set(otherStaff.auth),
      await t.http.delete(`/api/admin/validator/${id}`).set(otherStaff.auth),
    ]) {
      expect(res.status).toBe(403);
    }
    const theirs = await t.http.get('/api/admin/validator/list-per-page').set(otherStaff.auth);
    expect(theirs.body.data).toEqual([]);
    const mine = await t.http.get(`/api/admin/validator/list-per-page?user_id=${staff.id}&search=milik`).set(staff.auth);
    expect(mine.body.data.map((v: { id: number }) => v.id)).toEqual([id]);
    expect((await t.http.get(`/api/admin/validator/${id}`).set(admin.auth)).status).toBe(200);
    const foreign = await upload(otherStaff, '6281234567890', 'x.csv');
    expect(foreign.status).toBe(403);
  });

  it('start is refused with the Forbidden message while the account is disconnected', async () => {
    const linked = await linkByQr(t, staff);
    const created = await upload(staff, '6281234567890', 'putus.csv', { whatsapp_id: String(linked.id) });
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: linked.deviceId, state: 'loggedOut' }).expect(200);
    await eventually(
      () => t.http.get(`/api/admin/whatsapp/${linked.id}`).set(staff.auth),
      (r) => r.body.whatsapp?.state === 'loggedOut',
    );
    const start = await t.http.post('/api/admin/validator/start').set(staff.auth).send({ id: created.body.validator.id });
    expect(start.status).toBe(403);
    expect(start.body.msg).toBe(DISCONNECTED_MESSAGE);
  });
});

/** A GET whose path is sent exactly as written (no client-side normalising); resolves to the status. */
function rawGet(requestPath: string): Promise<number> {
  const { hostname, port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    http.get({ hostname, port, path: requestPath }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}
