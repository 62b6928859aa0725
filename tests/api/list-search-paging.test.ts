import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { fillOthers } from '../../bench/lib/list-fill';
import { idColumn, isSqlite, run, text } from './sql-fixtures';

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

describe('member and account searches go through a trigram index', () => {
  const memberTruth = (q: string) =>
    column(`SELECT id FROM users WHERE role = 'member' AND (firstname || ' ' || lastname || ' ' || email LIKE '%${q}%' OR firstname LIKE '%${q}%') ORDER BY id`);
  const accountTruth = (q: string) =>
    column(`SELECT id FROM whatsapps WHERE coalesce(pushname, '') || ' ' || coalesce(phonenumber, '') || ' ' || clientid LIKE '%${q}%' ORDER BY id DESC`);
  const allIds = async (path: string) => {
    const first = await get(`${path}&page=1`);
    const out = ids(first.body.data);
    for (let p = 2; p <= first.body.meta.totalPages; p++) out.push(...ids((await get(`${path}&page=${p}`)).body.data));
    return { total: first.body.meta.total as number, ids: out };
  };

  it('answer as a case-insensitive "contains" would, for long and short texts, after renames and deletes', async () => {
    const check = async () => {
      for (const q of ['wijaya', 'WIJ', 'ti', 'bench.local', 'a w']) {
        const truth = await memberTruth(q.toLowerCase());
        const got = await allIds(`/api/admin/users/members-per-page?search=${encodeURIComponent(q)}`);
        expect(got.total, `members "${q}"`).toBe(truth.length);
        expect(got.ids, `members "${q}"`).toEqual(truth);
      }
      for (const q of ['siti', 'SIT', '62', 'id-']) {
        const truth = await accountTruth(q.toLowerCase());
        const got = await allIds(`/api/admin/whatsapp/list-per-page?search=${encodeURIComponent(q)}`);
        expect(got.total, `accounts "${q}"`).toBe(truth.length);
        expect(got.ids, `accounts "${q}"`).toEqual(truth);
      }
    };
    await check();
    await run(t.ctx.db, text("UPDATE users SET lastname = 'Wijayakusuma' WHERE id IN (SELECT id FROM users WHERE role = 'member' ORDER BY id LIMIT 5)"));
    await run(t.ctx.db, text("UPDATE whatsapps SET pushname = 'Siti Baru' WHERE id IN (SELECT id FROM whatsapps ORDER BY id LIMIT 4)"));
    await run(t.ctx.db, text("DELETE FROM whatsapps WHERE id IN (SELECT id FROM whatsapps WHERE pushname LIKE '%iti%' ORDER BY id DESC LIMIT 3)"));
    await check();
    const quoted = await get(`/api/admin/users/members-per-page?search=${encodeURIComponent('"wij')}`);
    expect(quoted.status).toBe(200);
    expect(quoted.body.meta.total).toBe(0);
  });
});

describe('the search plans', () => {
  it('read the trigram index, not the table', async () => {
    const { accountSearch, textSearch } = await import('../../server/src/db/text-search');
    const { whatsapps } = await import('../../server/src/db/schema');
    const query = t.ctx.db.select({ id: whatsapps.id }).from(whatsapps).where(textSearch(accountSearch, 'siti')).toSQL();
    if (isSqlite(t.ctx.db)) {
      const client = (t.ctx.db as unknown as { $client: { prepare: (s: string) => { all: (...p: unknown[]) => Array<{ detail: string }> } } }).$client;
      const plan = client.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params).map((r) => r.detail).join('\n');
      expect(plan).toMatch(/VIRTUAL TABLE INDEX/);
    } else {
      const pool = t.ctx.db.$client as unknown as { connect: () => Promise<{ query: (s: string, p?: unknown[]) => Promise<{ rows: Array<Record<string, string>> }>; release: () => void }> };
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        // The tables here are small enough for a scan to win; the point is that the index can serve the search.
        await c.query('SET LOCAL enable_seqscan = off');
        const plan = (await c.query(`EXPLAIN ${query.sql}`, query.params)).rows.map((r) => Object.values(r)[0]).join('\n');
        expect(plan).toMatch(/whatsapps_search_trgm/);
      } finally {
        await c.query('ROLLBACK');
        c.release();
      }
    }
  });
});
