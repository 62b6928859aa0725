import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { API_ROUTES } from '../../common/api-routes';
import { optOut } from '../../server/src/phonenumbers/optout';
import { indexAll } from '../../server/src/phonenumbers/search';
import { phoneNumbers } from '../../server/src/db/schema';

let t: TestApp;
let admin: TestUser;
let dev: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  dev = await t.user('dev');
});
afterAll(() => t.close());

const save = (body: Record<string, unknown>, who = admin) => t.http.post('/api/admin/phonenumber/save').set(who.auth).send(body);

describe('roles', () => {
  it('members and staff get 403 on every phone-number, proxy and message call', async () => {
    const member = await t.user('member');
    const staff = await t.user('staff');
    const mine = API_ROUTES.filter((r) => /^\/admin\/(phonenumber|proxy|message)\//.test(r.path));
    expect(mine.length).toBeGreaterThanOrEqual(25);
    for (const who of [member, staff]) {
      for (const route of mine) {
        const url = `/api${route.path.replace(':id', '1').replace(':token', 'x')}`;
        const req = route.method === 'GET' ? t.http.get(url) : route.method === 'POST' ? t.http.post(url) : route.method === 'PUT' ? t.http.put(url) : t.http.delete(url);
        const res = await req.set(who.auth).send({});
        expect(res.status, `${route.method} ${route.path}`).toBe(403);
      }
    }
  });
});

describe('save, read, edit, delete', () => {
  it('saves a number in international form and answers it; dev may too', async () => {
    const res = await save({ number: '0812-1000-0001', name: 'Budi' });
    expect(res.status).toBe(201);
    expect(res.body.phoneNumber).toMatchObject({ number: '6281210000001', name: 'Budi', status: 'active', in_use: 0, count_success: 0, last_sent: null });
    const got = await t.http.get(`/api/admin/phonenumber/${res.body.phoneNumber.id}`).set(dev.auth);
    expect(got.body.phoneNumber).toMatchObject({ id: res.body.phoneNumber.id, number: '6281210000001', name: 'Budi', status: 'active' });
    expect((await save({ number: '+62 812 1000 0002', name: 'Dev' }, dev)).status).toBe(201);
  });

  it('refuses an invalid number, a missing name and a duplicate with clear messages', async () => {
    const bad = await save({ number: '0812', name: 'X' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.number).toMatch(/tidak valid untuk negaranya/);
    const letters = await save({ number: '0812abc45678', name: 'X' });
    expect(letters.body.msg).toMatch(/hanya boleh berisi angka/);
    const noName = await save({ number: '081210000003' });
    expect(noName.status).toBe(422);
    expect(noName.body.errors.name).toBe('Nama wajib diisi.');
    const noNumber = await save({ name: 'X' });
    expect(noNumber.body.errors.number).toBe('Nomor telepon wajib diisi.');
    await save({ number: '081210000004', name: 'A' }).expect(201);
    const dup = await save({ number: '6281210000004', name: 'B' });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe('Nomor 6281210000004 sudah ada di daftar.');
  });

  it('edits number, name and status, and refuses taking another row\'s number', async () => {
    const a = (await save({ number: '081210000010', name: 'A' })).body.phoneNumber;
    await save({ number: '081210000011', name: 'B' }).expect(201);
    const res = await t.http.put(`/api/admin/phonenumber/${a.id}`).set(admin.auth).send({ id: a.id, number: '0812 1000 0012', name: 'A2', status: 'nonactive' });
    expect(res.status).toBe(200);
    expect(res.body.phoneNumber).toMatchObject({ number: '6281210000012', name: 'A2', status: 'nonactive' });
    const clash = await t.http.put(`/api/admin/phonenumber/${a.id}`).set(admin.auth).send({ number: '081210000011', name: 'A2', status: 'active' });
    expect(clash.status).toBe(409);
    const badStatus = await t.http.put(`/api/admin/phonenumber/${a.id}`).set(admin.auth).send({ number: '081210000012', name: 'A2', status: 'deleted' });
    expect(badStatus.status).toBe(422);
    expect((await t.http.put('/api/admin/phonenumber/999999').set(admin.auth).send({ number: '081210000099', name: 'Z', status: 'active' })).status).toBe(404);
  });

  it('deletes a row, then it is gone', async () => {
    const a = (await save({ number: '081210000020', name: 'Del' })).body.phoneNumber;
    const del = await t.http.delete(`/api/admin/phonenumber/${a.id}`).set(admin.auth);
    expect(del.status).toBe(200);
    expect((await t.http.get(`/api/admin/phonenumber/${a.id}`).set(admin.auth)).status).toBe(404);
    expect((await t.http.delete(`/api/admin/phonenumber/${a.id}`).set(admin.auth)).status).toBe(404);
  });
});

describe('opt-out', () => {
  it('optOut makes the number nonactive with its reason; edit cannot re-activate it, save cannot re-add it', async () => {
    const a = (await save({ number: '081210000030', name: 'Stop' })).body.phoneNumber;
    const result = await optOut(t.ctx.db, '0812-1000-0030', 'Balasan STOP');
    expect(result).toEqual({ number: '6281210000030', phoneNumberId: a.id, added: true });
    expect((await optOut(t.ctx.db, '6281210000030', 'again')).added).toBe(false);
    const got = await t.http.get(`/api/admin/phonenumber/${a.id}`).set(admin.auth);
    expect(got.body.phoneNumber).toMatchObject({ status: 'nonactive', opt_out_reason: 'Balasan STOP' });
    const edit = await t.http.put(`/api/admin/phonenumber/${a.id}`).set(admin.auth).send({ number: a.number, name: 'Stop', status: 'active' });
    expect(edit.status).toBe(409);
    expect(edit.body.msg).toMatch(/berhenti berlangganan .*tidak bisa diaktifkan lagi/);
    const rename = await t.http.put(`/api/admin/phonenumber/${a.id}`).set(admin.auth).send({ number: a.number, name: 'Renamed', status: 'nonactive' });
    expect(rename.status).toBe(200);
    await t.http.delete(`/api/admin/phonenumber/${a.id}`).set(admin.auth).expect(200);
    const again = await save({ number: '081210000030', name: 'Back' });
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/berhenti berlangganan/);
  });

  it('records a number that is not in the list and refuses a non-number', async () => {
    expect(await optOut(t.ctx.db, '+62 899 0000 1111', 'Tombol Berhenti')).toEqual({ number: '6289900001111', phoneNumberId: null, added: true });
    await expect(optOut(t.ctx.db, 'abc', 'x')).rejects.toThrow(/Cannot opt out/);
  });
});

describe('list, search, counts and export', () => {
  let fresh: TestApp;
  let boss: TestUser;
  beforeAll(async () => {
    fresh = await startTestApp();
    boss = await fresh.user('admin');
    await fresh.ctx.db.insert(phoneNumbers).values(
      Array.from({ length: 25 }, (_, k) => {
        const i = k + 1;
        return {
          number: `62812000${String(i).padStart(5, '0')}`,
          name: i === 7 ? '=HYPERLINK("x")' : `Nama ${i}`,
          countSuccess: i <= 4 ? 2 : 0,
          lastSent: i <= 4 ? new Date(Date.UTC(2024, 0, i)) : null,
        };
      }),
    );
  });
  afterAll(() => fresh.close());
  const get = (url: string) => fresh.http.get(url).set(boss.auth);

  it('pages by 10 with meta, last page included', async () => {
    const p1 = await get('/api/admin/phonenumber/list-per-page?page=1');
    expect(p1.body.meta).toMatchObject({ page: 1, pageSize: 10, total: 25, totalPages: 3 });
    expect(p1.body.data).toHaveLength(10);
    expect(p1.body.data[0]).toMatchObject({ number: '6281200000001', name: 'Nama 1', count_success: 2, last_sent: '2024-01-01T00:00:00.000Z', opt_out_reason: null });
    const p3 = await get('/api/admin/phonenumber/list-per-page?page=3');
    expect(p3.body.data.map((r: { number: string }) => r.number)).toEqual(
      Array.from({ length: 5 }, (_, i) => `62812000000${21 + i}`),
    );
    expect((await get('/api/admin/phonenumber/list-per-page?page=9')).body.data).toEqual([]);
  });

  it('searches by a number fragment (written locally too) and by a name', async () => {
    await indexAll(fresh.ctx.db);
    const frag = await get('/api/admin/phonenumber/list-per-page?search=00012');
    expect(frag.body.data.map((r: { number: string }) => r.number)).toEqual(['6281200000012']);
    const local = await get(`/api/admin/phonenumber/list-per-page?search=${encodeURIComponent('0812 0000 002')}`);
    expect(local.body.data.map((r: { number: string }) => r.number)).toEqual(['6281200000020', '6281200000021', '6281200000022', '6281200000023', '6281200000024', '6281200000025']);
    const name = await get('/api/admin/phonenumber/list-per-page?search=nama%202');
    expect(name.body.data.map((r: { name: string }) => r.name)).toEqual(['Nama 2', 'Nama 20', 'Nama 21', 'Nama 22', 'Nama 23', 'Nama 24', 'Nama 25']);
    // Rows added after indexing are found too (the tail is indexed on demand).
    await fresh.http.post('/api/admin/phonenumber/save').set(boss.auth).send({ number: '081299998888', name: 'Wulan Baru' }).expect(201);
    expect((await get('/api/admin/phonenumber/list-per-page?search=wulan')).body.data).toHaveLength(1);
    // An edited name is found by its new name only.
    const id = (await get('/api/admin/phonenumber/list-per-page?search=wulan')).body.data[0].id;
    await fresh.http.put(`/api/admin/phonenumber/${id}`).set(boss.auth).send({ number: '081299998888', name: 'Intan', status: 'active' }).expect(200);
    expect((await get('/api/admin/phonenumber/list-per-page?search=wulan')).body.meta.total).toBe(0);
    expect((await get('/api/admin/phonenumber/list-per-page?search=intan')).body.meta.total).toBe(1);
    expect((await get('/api/admin/phonenumber/list?search=intan')).body).toMatchObject({ total: 1, truncated: false });
  });

  it('count-blast answers blasted and unBlasted', async () => {
    const res = await get('/api/admin/phonenumber/count-blast');
    expect(res.body).toEqual({ blasted: 4, unBlasted: 22 });
  });

  it('exports the whole list as CSV and JSON with formulas neutralised', async () => {
    const csv = await get('/api/admin/phonenumber/export?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="phone_numbers.csv"');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('number,name,status');
    expect(lines).toHaveLength(27);
    expect(lines[1]).toBe('6281200000001,Nama 1,active');
    expect(lines[7]).toBe(`6281200000007,"'=HYPERLINK(""x"")",active`);
    const json = await get('/api/admin/phonenumber/export?format=json');
    expect(json.headers['content-disposition']).toBe('attachment; filename="phone_numbers.json"');
    const list = JSON.parse(json.text);
    expect(list).toHaveLength(26);
    expect(list[0]).toEqual({ number: '6281200000001', name: 'Nama 1', status: 'active' });
  });

  it('answers "No phone numbers to export." when the list is empty', async () => {
    const empty = await startTestApp();
    const a = await empty.user('admin');
    const res = await empty.http.get('/api/admin/phonenumber/export?format=csv').set(a.auth);
    expect(res.status).toBe(404);
    expect(res.body.msg).toBe('No phone numbers to export.');
    await empty.close();
  });
});
