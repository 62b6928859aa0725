import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { indexAll } from '../../server/src/phonenumbers/search';
import { idColumn, isSqlite, padded, run, scalar, series, text } from './sql-fixtures';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  const db = t.ctx.db;
  // 6,000 rows over six id blocks, with holes: scattered deletes and one block emptied whole.
  await run(
    db,
    text(`${series(6000)}
     INSERT INTO phone_numbers (number, name) SELECT '62813' || ${padded(db, 'i * 7919 % 100000000', 8)}, 'Nama ' || (i % 50) || CASE WHEN i % 97 = 0 THEN ' Wijaya' ELSE '' END FROM s`),
  );
  await t.http.get('/api/admin/phonenumber/list-per-page?page=1').set(admin.auth).expect(200);
  await run(db, sql`DELETE FROM phone_numbers WHERE id % 17 = 0 OR (id >= 2048 AND id < 3072)`);
  await indexAll(t.ctx.db);
});
afterAll(() => t.close());

const page = (q: string) => t.http.get(`/api/admin/phonenumber/list-per-page?${q}`).set(admin.auth);
const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);
/** Ids of one page as OFFSET paging answers it. */
const offsetPage = (offset: number) => idColumn(t.ctx.db, sql`SELECT id FROM phone_numbers ORDER BY id LIMIT 10 OFFSET ${offset}`);

describe('paging by seek', () => {
  it('answers every page exactly as OFFSET paging would, with the exact total', async () => {
    const total = await scalar(t.ctx.db, sql`SELECT count(*) AS n FROM phone_numbers`);
    const last = Math.ceil(total / 10);
    for (const p of [1, 2, 99, 100, 101, 103, 200, 205, 300, Math.floor(last / 2), last - 1, last]) {
      const res = await page(`page=${p}`);
      expect(res.status).toBe(200);
      expect(ids(res.body.data), `page ${p}`).toEqual(await offsetPage((p - 1) * 10));
      expect(res.body.meta).toMatchObject({ page: p, pageSize: 10, total, totalPages: last });
    }
    const beyond = await page(`page=${last + 1}`);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta.total).toBe(total);
  });

  it('follows new rows and deletes at once', async () => {
    const before = (await page('page=1')).body.meta.total as number;
    const saved = await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '081355501234', name: 'Baru' });
    expect(saved.status).toBe(201);
    const after = await page(`page=${Math.ceil((before + 1) / 10)}`);
    expect(after.body.meta.total).toBe(before + 1);
    expect(ids(after.body.data)).toContain(saved.body.phoneNumber.id);
    const first = (await page('page=1')).body.data[0].id as number;
    await t.http.delete(`/api/admin/phonenumber/${first}`).set(admin.auth).expect(200);
    const again = await page('page=1');
    expect(again.body.meta.total).toBe(before);
    expect(ids(again.body.data)).not.toContain(first);
    expect(ids((await page('page=31')).body.data)).toEqual(await offsetPage(300));
  });
});

describe('search through the trigram index', () => {
  /** Every row whose number or name holds the text, ignoring case (SQLite's LIKE, PostgreSQL's ILIKE). */
  const truth = (fragment: string) =>
    idColumn(
      t.ctx.db,
      isSqlite(t.ctx.db)
        ? sql`SELECT id FROM phone_numbers WHERE number LIKE ${`%${fragment}%`} OR name LIKE ${`%${fragment}%`} ORDER BY id`
        : sql`SELECT id FROM phone_numbers WHERE number ILIKE ${`%${fragment}%`} OR name ILIKE ${`%${fragment}%`} ORDER BY id`,
    );

  it('finds by number prefix, number infix and name, with the exact count and pages', async () => {
    for (const text of ['6281300', '0004', '79190', 'wijaya', 'Nama 7']) {
      const expected = await truth(text);
      expect(expected.length, text).toBeGreaterThan(0);
      const res = await page(`page=1&search=${encodeURIComponent(text)}`);
      expect(res.body.meta.total, text).toBe(expected.length);
      expect(ids(res.body.data), text).toEqual(expected.slice(0, 10));
      if (expected.length > 20) expect(ids((await page(`page=3&search=${encodeURIComponent(text)}`)).body.data)).toEqual(expected.slice(20, 30));
    }
  });

  it('a locally written number searches its international form', async () => {
    const res = await page('page=1&search=0813000');
    expect(res.body.meta.total).toBe((await truth('62813000')).length);
  });

  it('finds rows added after the index was built (the not-yet-indexed tail)', async () => {
    const db = t.ctx.db;
    await run(db, text(`${series(6000)} INSERT INTO phone_numbers (number, name) SELECT '62857' || ${padded(db, 'i', 8)}, 'Ekor ' || i FROM s`));
    const res = await page('page=2&search=Ekor%2012');
    const expected = await truth('Ekor 12');
    expect(res.body.meta.total).toBe(expected.length);
    expect(ids(res.body.data)).toEqual(expected.slice(10, 20));
  });

  it('a repeated search follows renames, new rows and deletes (its cached matches are dropped)', async () => {
    const first = await page('page=1&search=Zulaikha');
    expect(first.body.meta.total).toBe(0);
    const target = (await page('page=7')).body.data[3] as { id: number; number: string };
    await t.http.put(`/api/admin/phonenumber/${target.id}`).set(admin.auth).send({ number: target.number, name: 'Zulaikha', status: 'active' }).expect(200);
    const renamed = await page('page=1&search=zulaikha');
    expect(ids(renamed.body.data)).toEqual([target.id]);
    const added = await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '081377701234', name: 'Zulaikha Dua' });
    expect(ids((await page('page=1&search=Zulaikha')).body.data)).toEqual([target.id, added.body.phoneNumber.id]);
    await t.http.delete(`/api/admin/phonenumber/${target.id}`).set(admin.auth).expect(200);
    expect(ids((await page('page=1&search=Zulaikha')).body.data)).toEqual([added.body.phoneNumber.id]);
  });

  it('caps the count of a very common text at 10,000 and says so', async () => {
    const db = t.ctx.db;
    await run(db, text(`${series(10_500)} INSERT INTO phone_numbers (number, name) SELECT '62859' || ${padded(db, 'i', 8)}, 'Umum ' || i FROM s`));
    await indexAll(t.ctx.db);
    const res = await page('page=1000&search=umum');
    expect(res.body.meta).toMatchObject({ total: 10_000, capped: true, totalPages: 1000 });
    expect(ids(res.body.data)).toEqual((await truth('Umum')).slice(9990, 10_000));
  });
});

describe('paging one line type (Jenis Nomor)', () => {
  /** Ids of one page of a type as OFFSET paging answers it, and the type's row count. */
  const typePage = (type: string, offset: number) =>
    idColumn(t.ctx.db, sql`SELECT id FROM phone_numbers WHERE line_type = ${type} ORDER BY id LIMIT 10 OFFSET ${offset}`);
  const typeTotal = (type: string) => scalar(t.ctx.db, sql`SELECT count(*) AS n FROM phone_numbers WHERE line_type = ${type}`);

  async function expectEveryTypeAsOffset(label: string) {
    for (const type of ['mobile', 'fixed_line', 'other']) {
      const total = await typeTotal(type);
      const last = Math.max(1, Math.ceil(total / 10));
      for (const p of [...new Set([1, 2, 50, 103, Math.floor(last / 2), last - 1, last].filter((p) => p >= 1 && p <= last))]) {
        const res = await page(`page=${p}&line_type=${type}`);
        expect(res.status).toBe(200);
        expect(ids(res.body.data), `${label}: ${type} page ${p}`).toEqual(await typePage(type, (p - 1) * 10));
        expect(res.body.meta.total, `${label}: ${type} total`).toBe(total);
      }
    }
  }

  it('answers every page of each type as OFFSET paging would, through type changes, new rows and deletes', async () => {
    const db = t.ctx.db;
    await run(db, sql`UPDATE phone_numbers SET line_type = CASE WHEN id % 3 = 0 THEN 'fixed_line' WHEN id % 11 = 0 THEN 'other' ELSE 'mobile' END`);
    await expectEveryTypeAsOffset('typed');
    // Rows added by a bulk insert (on SQLite not folded into the figures yet) are paged and counted too.
    await run(
      db,
      text(`${series(3000)} INSERT INTO phone_numbers (number, name, line_type) SELECT '62858' || ${padded(db, 'i', 8)}, 'Tipe ' || i, CASE WHEN i % 2 = 0 THEN 'fixed_line' ELSE 'mobile' END FROM s`),
    );
    await expectEveryTypeAsOffset('after an insert');
    await run(db, sql`UPDATE phone_numbers SET line_type = 'other' WHERE id % 5 = 0`);
    await run(db, sql`DELETE FROM phone_numbers WHERE id % 13 = 0`);
    await expectEveryTypeAsOffset('after type changes and deletes');
    const searched = await page('page=1&line_type=fixed_line&search=Tipe%2012');
    const truth = await idColumn(db, sql`SELECT id FROM phone_numbers WHERE line_type = 'fixed_line' AND name LIKE 'Tipe 12%' ORDER BY id`);
    expect(searched.body.meta.total).toBe(truth.length);
    expect(ids(searched.body.data)).toEqual(truth.slice(0, 10));
  });
});
