import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { fillOthers } from '../../bench/lib/list-fill';
import { idColumn, isSqlite, text } from './sql-fixtures';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  // 300 members (names from a fixed list), 900 accounts and 400 jobs of each kind over them.
  await fillOthers(t.ctx.db, { members: 300, accounts: 900, jobs: 400 });
});
afterAll(() => t.close());

const get = (path: string) => t.http.get(path).set(admin.auth);
const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);
/** The ids a query answers; its LIKE ignores case on both stores (PostgreSQL spells that ILIKE). */
const column = (query: string) => idColumn(t.ctx.db, text(isSqlite(t.ctx.db) ? query : query.replace(/ LIKE /g, ' ILIKE ')));

describe('searched lists page through every match with the exact total', () => {
  it('members', async () => {
    const truth = await column("SELECT id FROM users WHERE role = 'member' AND (firstname LIKE '%wijaya%' OR lastname LIKE '%wijaya%' OR email LIKE '%wijaya%') ORDER BY id");
    expect(truth.length).toBeGreaterThan(20);
    for (const p of [1, 2, Math.ceil(truth.length / 10)]) {
      const res = await get(`/api/admin/users/members-per-page?page=${p}&search=wijaya`);
      expect(res.body.meta.total).toBe(truth.length);
      expect(ids(res.body.data)).toEqual(truth.slice((p - 1) * 10, p * 10));
    }
  });

  it('WhatsApp accounts', async () => {
    const truth = await column("SELECT id FROM whatsapps WHERE pushname LIKE '%siti%' OR phonenumber LIKE '%siti%' OR clientid LIKE '%siti%' ORDER BY id DESC");
    expect(truth.length).toBeGreaterThan(20);
    for (const p of [1, 3, Math.ceil(truth.length / 10)]) {
      const res = await get(`/api/admin/whatsapp/list-per-page?page=${p}&search=siti`);
      expect(res.body.meta.total).toBe(truth.length);
      expect(ids(res.body.data)).toEqual(truth.slice((p - 1) * 10, p * 10));
    }
    const unfiltered = await get('/api/admin/whatsapp/list-per-page?page=50');
    expect(unfiltered.body.meta.total).toBe(900);
    expect(ids(unfiltered.body.data)).toEqual(await column('SELECT id FROM whatsapps ORDER BY id DESC LIMIT 10 OFFSET 490'));
  });

  it('generator and validator jobs, searched through their accounts too', async () => {
    const gen = await column(
      "SELECT g.id FROM generators g LEFT JOIN whatsapps w ON w.id = g.whatsapp_id WHERE g.start_number LIKE '%0001%' OR g.end_number LIKE '%0001%' OR g.current_number LIKE '%0001%' OR w.pushname LIKE '%0001%' OR w.phonenumber LIKE '%0001%' OR w.clientid LIKE '%0001%' ORDER BY g.id DESC",
    );
    expect(gen.length).toBeGreaterThan(20);
    for (const p of [1, 2, Math.ceil(gen.length / 10)]) {
      const res = await get(`/api/admin/generator/list-per-page?page=${p}&search=0001`);
      expect(res.body.meta.total).toBe(gen.length);
      expect(ids(res.body.data)).toEqual(gen.slice((p - 1) * 10, p * 10));
      expect(res.body.data[0].Whatsapp).toBeTruthy();
    }
    const val = await column("SELECT id FROM validators WHERE file_name LIKE '%daftar-1%' ORDER BY id DESC");
    const res = await get('/api/admin/validator/list-per-page?page=2&search=daftar-1');
    expect(res.body.meta.total).toBe(val.length);
    expect(ids(res.body.data)).toEqual(val.slice(10, 20));
    const plain = await get('/api/admin/validator/list-per-page?page=20&status=sending');
    expect(plain.body.meta.total).toBe(20);
    expect(ids(plain.body.data)).toEqual([]);
    const sending = await get('/api/admin/validator/list-per-page?page=2&status=sending');
    expect(ids(sending.body.data)).toEqual(await column("SELECT id FROM validators WHERE status = 'sending' ORDER BY id DESC LIMIT 10 OFFSET 10"));
  });
});
