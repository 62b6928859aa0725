import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { proxies } from '../../server/src/db/schema';
import { one } from '../../server/src/db/raw';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

const save = (value: unknown) => t.http.post('/api/admin/proxy/save').set(admin.auth).send({ value });
const get = (url: string) => t.http.get(url).set(admin.auth);

describe('proxies', () => {
  it('answers "No Proxys to export." while the list is empty', async () => {
    const res = await get('/api/admin/proxy/export?format=csv');
    expect(res.status).toBe(404);
    expect(res.body.msg).toBe('No Proxys to export.');
  });

  it('saves valid values, refuses invalid and duplicate ones, masks passwords in every read', async () => {
    const a = await save('socks5://alice:s3cret@10.0.0.1:1080');
    expect(a.status).toBe(201);
    expect(a.body.proxy).toMatchObject({ value: 'socks5://alice:****@10.0.0.1:1080', status: 'active', count_use: 0 });
    expect((await save('10.0.0.2:8080')).status).toBe(201);
    const bad = await save('ftp://10.0.0.3:21');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.value).toMatch(/http, https atau socks5/);
    expect((await save('')).body.errors.value).toBe('Proxy wajib diisi.');
    const dup = await save('SOCKS5://alice:s3cret@10.0.0.1:1080');
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe('Proxy sudah ada di daftar.');
    const list = await get('/api/admin/proxy/list-per-page?page=1');
    expect(list.body.meta).toMatchObject({ page: 1, total: 2, totalPages: 1 });
    expect(JSON.stringify(list.body)).not.toContain('s3cret');
    expect(JSON.stringify((await get('/api/admin/proxy/list')).body)).not.toContain('s3cret');
    expect(JSON.stringify((await get(`/api/admin/proxy/${a.body.proxy.id}`)).body)).not.toContain('s3cret');
  });

  it('edits with the masked value kept, toggles status, refuses a clash, deletes', async () => {
    const a = (await save('http://bob:pw123@proxy.test:3128')).body.proxy;
    const b = (await save('proxy.test:3129')).body.proxy;
    const res = await t.http.put(`/api/admin/proxy/${a.id}`).set(admin.auth).send({ id: a.id, value: a.value, status: 'nonactive' });
    expect(res.status).toBe(200);
    expect(res.body.proxy).toMatchObject({ value: 'http://bob:****@proxy.test:3128', status: 'nonactive' });
    const stored = await one(t.ctx.db.select({ value: proxies.value }).from(proxies).where(eq(proxies.id, a.id)));
    expect(stored?.value).toBe('http://bob:pw123@proxy.test:3128');
    const clash = await t.http.put(`/api/admin/proxy/${a.id}`).set(admin.auth).send({ value: 'proxy.test:3129', status: 'active' });
    expect(clash.status).toBe(409);
    await t.http.delete(`/api/admin/proxy/${b.id}`).set(admin.auth).expect(200);
    expect((await get(`/api/admin/proxy/${b.id}`)).status).toBe(404);
  });

  it('count-use answers used and unUsed', async () => {
    await t.ctx.db.update(proxies).set({ countUse: 3 }).where(eq(proxies.value, '10.0.0.2:8080'));
    const res = await get('/api/admin/proxy/count-use');
    const total = Number((await one(t.ctx.db.select({ n: count() }).from(proxies)))?.n);
    expect(res.body).toEqual({ used: 1, unUsed: total - 1 });
  });

  it('imports CSV and JSON, skipping invalid, repeated and existing values with reasons', async () => {
    const csv = await t.http
      .post('/api/admin/proxy/import')
      .set(admin.auth)
      .attach('file', Buffer.from('\uFEFFvalue\r\n10.1.0.1:80\r\nbad value\r\n10.1.0.1:80\r\n10.0.0.2:8080\r\nhttp://u:secretpw@10.1.0.2:81\r\n'), 'p.csv');
    expect(csv.status).toBe(200);
    expect(csv.body.created.map((p: { value: string }) => p.value)).toEqual(['10.1.0.1:80', 'http://u:****@10.1.0.2:81']);
    expect(csv.body.skipped.map((s: { value: string; reason: string; reasonCode: string }) => [s.value, s.reason, s.reasonCode])).toEqual([
      ['bad value', 'invalid proxy', 'skip_invalid_proxy'],
      ['10.1.0.1:80', 'repeated in the file', 'skip_repeated'],
      ['10.0.0.2:8080', 'already in the list', 'skip_existing'],
    ]);
    const json = await t.http
      .post('/api/admin/proxy/import')
      .set(admin.auth)
      .attach('file', Buffer.from(JSON.stringify(['10.1.0.3:80', { value: '10.1.0.4:80', status: 'nonactive' }])), 'p.json');
    expect(json.body.created).toEqual([expect.objectContaining({ value: '10.1.0.3:80', status: 'active' }), expect.objectContaining({ value: '10.1.0.4:80', status: 'nonactive' })]);
    expect(json.body.skipped).toEqual([]);
    const wrong = await t.http.post('/api/admin/proxy/import').set(admin.auth).attach('file', Buffer.from('x'), 'p.txt');
    expect(wrong.status).toBe(422);
  });

  it('exports value and status in full as proxies.csv and proxies.json', async () => {
    const csv = await get('/api/admin/proxy/export?format=csv');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="proxies.csv"');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('value,status');
    expect(lines).toContain('socks5://alice:s3cret@10.0.0.1:1080,active');
    const json = await get('/api/admin/proxy/export?format=json');
    expect(json.headers['content-disposition']).toBe('attachment; filename="proxies.json"');
    expect(JSON.parse(json.text)).toContainEqual({ value: '10.1.0.4:80', status: 'nonactive' });
  });
});
