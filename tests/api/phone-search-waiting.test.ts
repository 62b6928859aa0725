import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rawAll, rawRun } from '../../server/src/db/raw';
import { isPostgres } from '../../server/src/db/postgres';
import { indexAll } from '../../server/src/phonenumbers/search';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

/**
 * The rows of a large insert are indexed for search after it (SQLite: the trigram index's tail; PostgreSQL:
 * the id ranges waiting in phone_search_todo), and a search meanwhile answers exactly what a "contains" over
 * the whole list answers: rows waiting, renamed, deleted, and after the indexing caught up.
 */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

const ROWS = 6000;

const search = async (text: string) => {
  const res = await t.http.get(`/api/admin/phonenumber/list-per-page?page=1&per_page=100&search=${encodeURIComponent(text)}`).set(admin.auth);
  expect(res.status).toBe(200);
  return res.body.meta.total as number;
};

/** What a case-insensitive "contains" over every row answers. */
const expected = async (text: string) => {
  const rows = await rawAll<{ number: string; name: string }>(t.ctx.db, sql`SELECT number, name FROM phone_numbers`);
  const needle = text.toLowerCase();
  return rows.filter((r) => r.number.toLowerCase().includes(needle) || r.name.toLowerCase().includes(needle)).length;
};

const waitingRanges = async () =>
  isPostgres(t.ctx.db) ? Number((await rawAll<{ n: number }>(t.ctx.db, sql`SELECT count(*)::integer AS n FROM phone_search_todo`))[0]!.n) : null;

describe('search while a large insert is being indexed', () => {
  it('answers exactly before, during and after the indexing, with renames and deletes of waiting rows', async () => {
    // A few saved one by one (indexed as they commit), then one large statement (left to the indexing).
    for (let i = 0; i < 5; i++) expect((await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: `08129990000${i}`, name: `Kenanga satu ${i}` })).status).toBe(201);
    await rawRun(
      t.ctx.db,
      sql.raw(`WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < ${ROWS})
        INSERT INTO phone_numbers (number, name, line_type)
        SELECT '62813' || (10000000 + i), CASE WHEN i % 7 = 0 THEN 'Kenanga ' || i ELSE 'Lain ' || i END, 'mobile' FROM s`),
    );
    const all = 5 + Math.ceil(ROWS / 7);
    expect(await expected('kenanga')).toBe(all);
    // Rows of the large insert renamed into and out of the matches, and one of them deleted.
    const [inside] = await rawAll<{ id: number }>(t.ctx.db, sql`SELECT id FROM phone_numbers WHERE name = ${'Lain 5001'}`);
    const [outside] = await rawAll<{ id: number }>(t.ctx.db, sql`SELECT id FROM phone_numbers WHERE name = ${'Kenanga 5012'}`);
    const [gone] = await rawAll<{ id: number }>(t.ctx.db, sql`SELECT id FROM phone_numbers WHERE name = ${'Kenanga 5019'}`);
    expect((await t.http.put(`/api/admin/phonenumber/${inside!.id}`).set(admin.auth).send({ number: '6281310005001', name: 'Kenanga baru', status: 'active' })).status).toBe(200);
    expect((await t.http.put(`/api/admin/phonenumber/${outside!.id}`).set(admin.auth).send({ number: '6281310005012', name: 'Melati', status: 'active' })).status).toBe(200);
    expect((await t.http.delete(`/api/admin/phonenumber/${gone!.id}`).set(admin.auth)).status).toBe(200);

    // Nothing searched yet, so nothing indexed the large insert's rows.
    if (isPostgres(t.ctx.db)) expect(await waitingRanges()).toBeGreaterThan(0);
    expect(await expected('kenanga')).toBe(all - 1);
    expect(await search('KENANGA')).toBe(all - 1);
    expect(await search('melati')).toBe(1);
    expect(await search('1000700')).toBe(await expected('1000700'));

    // Once everything is indexed the answers are the same, and later edits still show.
    await indexAll(t.ctx.db);
    if (isPostgres(t.ctx.db)) {
      expect(await waitingRanges()).toBe(0);
      const [copied] = await rawAll<{ n: number }>(t.ctx.db, sql`SELECT count(*)::integer AS n FROM phone_search`);
      expect(copied!.n).toBe(ROWS + 5 - 1);
    }
    expect(await search('kenanga')).toBe(all - 1);
    expect(await search('1000700')).toBe(await expected('1000700'));
    expect((await t.http.put(`/api/admin/phonenumber/${outside!.id}`).set(admin.auth).send({ number: '6281310005012', name: 'Kenanga lagi', status: 'active' })).status).toBe(200);
    expect(await search('kenanga')).toBe(all);
    expect((await t.http.delete(`/api/admin/phonenumber/${inside!.id}`).set(admin.auth)).status).toBe(200);
    expect(await search('kenanga')).toBe(all - 1);
    expect(await search('kenanga')).toBe(await expected('kenanga'));
  });
});
