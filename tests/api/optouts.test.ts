import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { connected, startTestApp, type TestApp, type TestUser } from '../helpers';
import { eventually } from './whatsapp-fixtures';
import { auditLog, optOuts, whatsapps } from '../../server/src/db/schema';
import { one } from '../../server/src/db/raw';
import { optOut } from '../../server/src/phonenumbers/optout';

let t: TestApp;
let admin: TestUser;
let dev: TestUser;
let accountId: number;

const LIST = '/api/admin/phonenumber/optout/list-per-page';
const SAVE = '/api/admin/phonenumber/optout/save';

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  dev = await t.user('dev');
  const member = await t.user('member');
  const [row] = await t.ctx.db
    .insert(whatsapps)
    .values({ deviceId: 'optout-list-1', clientid: 'optout-list-1', userId: member.id, pushname: 'Toko Budi', phonenumber: '6281300007777' })
    .returning({ id: whatsapps.id });
  accountId = row!.id;
});
afterAll(() => t.close());

type Row = { id: number; number: string; reason: string; whatsapp: { id: number; pushname: string | null; phonenumber: string | null } | null; created_at: string };
const list = async (query: string, who = admin) => {
  const res = await t.http.get(`${LIST}${query}`).set(who.auth);
  expect(res.status).toBe(200);
  return res.body as { data: Row[]; meta: { page: number; pageSize: number; total: number; totalPages: number } };
};
const add = (number: unknown, who = admin) => t.http.post(SAVE).set(who.auth).send({ number });
const audits = async () => (await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'optout.create'))).length;
const optOutCount = async () => Number((await one(t.ctx.db.select({ n: count() }).from(optOuts)))?.n ?? 0);

describe('who may see and add to the opt-out list', () => {
  it('members and staff are refused with 403, without a token 401; admin and dev may', async () => {
    for (const role of ['member', 'staff'] as const) {
      const who = await t.user(role);
      const read = await t.http.get(`${LIST}?page=1`).set(who.auth);
      expect(read.status).toBe(403);
      expect(read.body.code).toBe('role_denied');
      const write = await add('081234560001', who);
      expect(write.status).toBe(403);
    }
    expect((await t.http.get(LIST)).status).toBe(401);
    expect((await t.http.post(SAVE).send({ number: '081234560001' })).status).toBe(401);
    expect(await optOutCount()).toBe(0);
    expect((await t.http.get(`${LIST}?page=1`).set(dev.auth)).status).toBe(200);
  });
});

describe('the list', () => {
  it('pages by 10, newest first, with the reason, the account it came through and the date', async () => {
    // 12 opt-outs: 6281277000000 … 6281277000011, the even ones through the account.
    for (let i = 0; i < 12; i++) {
      await optOut(t.ctx.db, `62812770000${String(i).padStart(2, '0')}`, i % 2 ? 'Tombol Berhenti' : 'Balasan STOP', i % 2 ? null : accountId);
    }
    const first = await list('?page=1');
    expect(first.meta).toEqual({ page: 1, pageSize: 10, total: 12, totalPages: 2 });
    expect(first.data.map((r) => r.number)).toEqual(Array.from({ length: 10 }, (_, i) => `62812770000${String(11 - i).padStart(2, '0')}`));
    expect(first.data[0]).toMatchObject({ number: '6281277000011', reason: 'Tombol Berhenti', whatsapp: null });
    expect(first.data[1]).toMatchObject({
      number: '6281277000010',
      reason: 'Balasan STOP',
      whatsapp: { id: accountId, pushname: 'Toko Budi', phonenumber: '6281300007777' },
    });
    expect(Date.now() - Date.parse(first.data[0]!.created_at)).toBeLessThan(60_000);
    const second = await list('?page=2');
    expect(second.meta.page).toBe(2);
    expect(second.data.map((r) => r.number)).toEqual(['6281277000001', '6281277000000']);
    // A page past the end is empty; a bad page is page 1.
    expect((await list('?page=3')).data).toEqual([]);
    expect((await list('?page=x')).meta.page).toBe(1);
  });

  it('searches by number, in the stored or the local form, also by a part of it', async () => {
    const local = await list('?page=1&search=0812-7700-0005');
    expect(local.data.map((r) => r.number)).toEqual(['6281277000005']);
    expect(local.meta.total).toBe(1);
    const part = await list('?search=7700001');
    expect(part.data.map((r) => r.number)).toEqual(['6281277000011', '6281277000010']);
    expect(part.meta).toMatchObject({ total: 2, totalPages: 1 });
    // LIKE wildcards typed into the box match only themselves.
    expect((await list('?search=%25')).data).toEqual([]);
    expect((await list('?search=Budi')).data).toEqual([]);
  });

  it('shows no account when the account it came through was deleted', async () => {
    const member = await t.user('member');
    const [row] = await t.ctx.db.insert(whatsapps).values({ deviceId: 'optout-gone', clientid: 'optout-gone', userId: member.id }).returning({ id: whatsapps.id });
    await optOut(t.ctx.db, '6281277009999', 'Balasan STOP', row!.id);
    await t.ctx.db.delete(whatsapps).where(eq(whatsapps.id, row!.id));
    expect((await list('?search=6281277009999')).data[0]).toMatchObject({ number: '6281277009999', whatsapp: null });
  });
});

describe('adding a number by hand', () => {
  it('normalises the number, records "Ditambahkan manual" and who added it, and makes the phone-number row nonactive', async () => {
    const saved = await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '6281277100001', name: 'Minta Berhenti' });
    expect(saved.status).toBe(201);
    const phoneId = saved.body.phoneNumber.id as number;
    const admins = t.socket(admin.token);
    await connected(admins);
    const events: Array<{ event: string; data: { receiver?: { id: number; status: string; opt_out_reason?: string } } }> = [];
    admins.on('client-admin', (m: (typeof events)[number]) => events.push(m));

    const res = await add('0812-7710-0001');
    expect(res.status).toBe(201);
    expect(res.body.optOut).toMatchObject({ number: '6281277100001', reason: 'Ditambahkan manual', whatsapp: null });
    expect(res.body.msg).toBe('Nomor 6281277100001 ditambahkan ke daftar berhenti.');
    expect((await list('?page=1')).data[0]).toMatchObject({ number: '6281277100001', reason: 'Ditambahkan manual' });

    const phone = await t.http.get(`/api/admin/phonenumber/${phoneId}`).set(admin.auth);
    expect(phone.body.phoneNumber).toMatchObject({ status: 'nonactive', opt_out_reason: 'Ditambahkan manual' });
    await eventually(
      () => events,
      (e) => e.some((m) => m.event === 'opt_out' && m.data.receiver?.id === phoneId && m.data.receiver.status === 'nonactive'),
    );

    const audit = await t.http.get('/api/admin/audit?page=1').set(dev.auth);
    const entry = (audit.body.data as Array<{ action: string; details: Record<string, unknown>; actor: { id: number } | null; target: unknown }>).find((r) => r.action === 'optout.create');
    expect(entry).toMatchObject({ details: { number: '6281277100001', reason: 'Ditambahkan manual' }, actor: { id: admin.id }, target: null });
  });

  it('adds a number that is not in the phone-number list too; dev may add', async () => {
    const res = await add('+62 812 7710 0002', dev);
    expect(res.status).toBe(201);
    expect(res.body.optOut.number).toBe('6281277100002');
    // Saving it to the phone-number list afterwards is refused: it opted out.
    const save = await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '6281277100002', name: 'X' });
    expect(save.status).toBe(409);
    expect(save.body.msg).toBe('Nomor 6281277100002 sudah berhenti berlangganan (Ditambahkan manual) dan tidak bisa didaftarkan lagi.');
  });

  it("refuses a bad number with the phone-number area's messages and adds nothing", async () => {
    const before = await optOutCount();
    const auditsBefore = await audits();
    const short = await add('0812');
    expect(short.status).toBe(422);
    expect(short.body.msg).toBe('Nomor telepon tidak valid untuk negaranya (periksa kode negara dan jumlah digit).');
    expect(short.body.errors.number).toBe(short.body.msg);
    expect(short.body.code).toBe('phone_invalid_for_country');
    const letters = await add('0812abc45678');
    expect(letters.status).toBe(422);
    expect(letters.body.errors.number).toBe('Nomor telepon hanya boleh berisi angka, spasi, titik, tanda minus atau + di depan.');
    for (const empty of ['', '   ', null, undefined]) {
      const res = await add(empty);
      expect(res.status).toBe(422);
      expect(res.body.errors.number).toBe('Nomor telepon wajib diisi.');
    }
    expect(await optOutCount()).toBe(before);
    expect(await audits()).toBe(auditsBefore);
  });

  it('answers 409 for a number already on the list and changes nothing (its first reason stays)', async () => {
    const before = await optOutCount();
    const auditsBefore = await audits();
    const dup = await add('081277000003');
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe('Nomor 6281277000003 sudah ada di daftar berhenti (Tombol Berhenti).');
    expect(dup.body.errors.number).toBe(dup.body.msg);
    expect(dup.body.code).toBe('optout_exists');
    const again = await add('6281277100001');
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('Nomor 6281277100001 sudah ada di daftar berhenti (Ditambahkan manual).');
    expect(await optOutCount()).toBe(before);
    expect(await audits()).toBe(auditsBefore);
    expect((await list('?search=6281277000003')).data[0]).toMatchObject({ reason: 'Tombol Berhenti', whatsapp: null });
  });

  it('offers no way to remove a number from the list', async () => {
    const { data } = await list('?page=1');
    const del = await t.http.delete(`/api/admin/phonenumber/optout/${data[0]!.id}`).set(admin.auth);
    expect(del.status).toBe(404);
    expect(await optOutCount()).toBeGreaterThan(0);
  });
});
