import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, nextMessage, startTestApp, type TestApp, type TestUser } from '../helpers';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { optOut } from '../../server/src/phonenumbers/optout';
import { ImportAborted, importPhoneNumbers } from '../../server/src/phonenumbers/import';
import { phoneListFigures } from '../../server/src/db/phonelist';
import { isPostgresUrl } from '../../server/src/db/postgres';
import { sql } from 'drizzle-orm';
import { dialectOf, rawGet, rawRun } from '../../server/src/db/raw';

// On SQLite in memory the import runs on the server's thread, on a database file in a worker thread;
// on PostgreSQL (both variants) on the server's thread with a pooled connection of its own.
describe.each([
  ['in memory', false],
  ['on a database file', true],
])('import %s', (_label, dbFile) => {
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp({}, { dbFile });
  admin = await t.user('admin');
});
afterAll(() => t.close());

const upload = (content: string | Buffer, fileName: string, query = '') =>
  t.http.post(`/api/admin/phonenumber/import${query}`).set(admin.auth).attach('file', Buffer.isBuffer(content) ? content : Buffer.from(content), fileName);
const count = async () => Number((await rawGet<{ n: number }>(t.ctx.db, sql`SELECT count(*) AS n FROM phone_numbers`))?.n);

describe('import', () => {
  it('keeps names with backslashes, tabs and line breaks as written (PostgreSQL stages rows through COPY)', async () => {
    const csv = ['number,name', '081300000070,"C:\\Back\\slash \\N"', '081300000071,"Tab\there"', '081300000072,"Two\nlines\r\nthree"', ''].join('\n');
    const res = await upload(csv, 'escapes.csv');
    expect(res.status).toBe(200);
    expect(res.body.created.map((r: { number: string; name: string }) => [r.number, r.name])).toEqual([
      ['6281300000070', 'C:\\Back\\slash \\N'],
      ['6281300000071', 'Tab\there'],
      ['6281300000072', 'Two\nlines\r\nthree'],
    ]);
    // The list's later tests count from an empty list.
    await rawRun(t.ctx.db, sql`DELETE FROM phone_numbers WHERE number IN ('6281300000070', '6281300000071', '6281300000072')`);
  });

  it('imports CSV with BOM, CRLF, semicolons and a header, reporting every skip with its reason', async () => {
    const existing = (await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '081300000001', name: 'Ada' })).body.phoneNumber;
    await optOut(t.ctx.db, '081300000002', 'Balasan STOP');
    const csv = [
      '\uFEFFnumber;name',
      '0813-0000-0010;Baru Satu',
      '+62 813 0000 0011;"Baru; Dua"',
      '081300000001;Sudah Ada',
      '081300000002;Berhenti',
      '0813 0000 0010;Ulang',
      '12345;Pendek',
      '',
    ].join('\r\n');
    const res = await upload(csv, 'numbers.csv');
    expect(res.status).toBe(200);
    expect(res.body.createdCount).toBe(2);
    expect(res.body.created.map((r: { number: string; name: string }) => [r.number, r.name])).toEqual([
      ['6281300000010', 'Baru Satu'],
      ['6281300000011', 'Baru; Dua'],
    ]);
    expect(res.body.skippedCount).toBe(4);
    expect(res.body.skippedFile).toBeNull();
    expect(res.body.skipped).toEqual([
      { id: existing.id, number: '6281300000001', name: 'Sudah Ada', status: 'active', reason: 'already in the list', reasonCode: 'skip_existing' },
      { id: null, number: '6281300000002', name: 'Berhenti', status: 'nonactive', reason: 'opted out', reasonCode: 'skip_opted_out' },
      { id: null, number: '6281300000010', name: 'Ulang', status: '', reason: 'repeated in the file', reasonCode: 'skip_repeated' },
      { id: null, number: '12345', name: 'Pendek', status: '', reason: 'nomor tidak valid', reasonCode: 'skip_invalid_number' },
    ]);
    const list = await t.http.get('/api/admin/phonenumber/list-per-page?search=0813000000').set(admin.auth);
    expect(list.body.meta.total).toBe(3);
  });

  it("gives every occurrence of a listed or opted-out number the list's reason, the file smaller or larger than the list", async () => {
    const listed = (await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '081910000001', name: 'Terdaftar' })).body.phoneNumber;
    await optOut(t.ctx.db, '081910000002', 'Balasan STOP');
    const maxId = async (table: string) => Number((await rawGet<{ m: number }>(t.ctx.db, sql.raw(`SELECT coalesce(max(id), 0) AS m FROM ${table}`)))?.m);
    // Two new numbers against a longer list and opt-out list, then more new numbers than either holds.
    const larger = Math.max(await maxId('phone_numbers'), await maxId('opt_outs')) + 10;
    for (const [n, prefix] of [[0, '08192'], [larger, '08193']] as const) {
      const fresh = Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(7, '0')},Baru`);
      const csv = ['number,name', '081910000001,Satu', ...fresh, '081910000002,Dua', '081910000001,Tiga', '081910000002,Empat'].join('\n');
      const res = await upload(csv, 'reasons.csv');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ createdCount: n, skippedCount: 4 });
      expect(res.body.skipped.map((r: Record<string, unknown>) => [r.id, r.number, r.name, r.status, r.reason])).toEqual([
        [listed.id, '6281910000001', 'Satu', 'active', 'already in the list'],
        [null, '6281910000002', 'Dua', 'nonactive', 'opted out'],
        [listed.id, '6281910000001', 'Tiga', 'active', 'already in the list'],
        [null, '6281910000002', 'Empat', 'nonactive', 'opted out'],
      ]);
    }
  });

  // In memory the import runs on this thread, so a write made at its 'saving' report lands between
  // the list checks and the final transaction, which must notice it.
  it.runIf(!dbFile && !isPostgresUrl(process.env.DATABASE_URL ?? ''))('skips rows listed or opted out after the list checks ran', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-race-'));
    try {
      const file = path.join(dir, 'race.csv');
      fs.writeFileSync(file, ['081920000001,Satu', '081920000002,Dua', '081920000003,Tiga', '081920000002,Ulang'].join('\n'));
      const client = (t.ctx.db as unknown as { $client: { prepare: (q: string) => { run: (...a: unknown[]) => { lastInsertRowid: number | bigint } } } }).$client;
      let raced = 0;
      const res = await importPhoneNumbers(t.ctx.db, file, 'csv', {
        skippedDir: path.join(dir, 'skipped'),
        onProgress: (p) => {
          if (p.phase !== 'saving' || raced) return;
          raced = Number(client.prepare(`INSERT INTO phone_numbers (number, name) VALUES ('6281920000001', 'Lain')`).run().lastInsertRowid);
          client.prepare(`INSERT INTO opt_outs (number, reason) VALUES ('6281920000002', 'Balasan STOP')`).run();
        },
      });
      expect(raced).toBeGreaterThan(0);
      expect(res.createdCount).toBe(1);
      expect(res.created.map((r) => r.number)).toEqual(['6281920000003']);
      expect(res.skipped.map((r) => [r.id, r.number, r.name, r.status, r.reason])).toEqual([
        [raced, '6281920000001', 'Satu', 'active', 'already in the list'],
        [null, '6281920000002', 'Dua', 'nonactive', 'opted out'],
        [null, '6281920000002', 'Ulang', 'nonactive', 'opted out'],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('imports CSV without a header, comma separated, LF or CRLF', async () => {
    const res = await upload('081400000001,Satu\n081400000002,Dua\r\n081400000003\n', 'plain.csv');
    expect(res.body).toMatchObject({ createdCount: 3, skippedCount: 0, skipped: [] });
    expect(res.body.created[2]).toMatchObject({ number: '6281400000003', name: '', status: 'active' });
  });

  it('imports JSON arrays of strings or of {number, name}', async () => {
    const strings = await upload(JSON.stringify(['081500000001', '0815-0000-0002', 'nope']), 'a.json');
    expect(strings.body).toMatchObject({ createdCount: 2, skippedCount: 1 });
    expect(strings.body.skipped[0]).toMatchObject({ number: 'nope', reason: 'nomor tidak valid' });
    const objects = await upload(
      JSON.stringify([
        { number: '081500000003', name: 'Tiga' },
        { number: '081500000001', name: 'Lagi' },
      ]),
      'b.json',
    );
    expect(objects.body.created).toEqual([expect.objectContaining({ number: '6281500000003', name: 'Tiga' })]);
    expect(objects.body.skipped).toEqual([expect.objectContaining({ number: '6281500000001', reason: 'already in the list' })]);
  });

  it('refuses a missing file, another file type and a broken JSON file', async () => {
    const none = await t.http.post('/api/admin/phonenumber/import').set(admin.auth).field('x', '1');
    expect(none.status).toBe(422);
    expect(none.body.msg).toBe('File wajib diunggah.');
    const txt = await upload('0812', 'numbers.txt');
    expect(txt.status).toBe(422);
    expect(txt.body.msg).toBe('File harus berformat .csv atau .json.');
    const obj = await upload('{"number":"0812"}', 'x.json');
    expect(obj.status).toBe(422);
    expect(obj.body.msg).toMatch(/must be an array/);
  });

  it('leaves the table unchanged when the file turns out broken after several batches', async () => {
    const before = await count();
    const items = Array.from({ length: 12_000 }, (_, i) => `"0816${String(i).padStart(8, '0')}"`);
    const res = await upload(`[${items.join(',')}, {"number": ]`, 'big.json');
    expect(res.status).toBe(422);
    expect(await count()).toBe(before);
  });

  it('leaves the table unchanged when saving fails part-way through the rows', async () => {
    const before = await count();
    // A row the database refuses in the middle of the final insert.
    // A persistent trigger: the worker's (or the import's pooled) connection does not see temp ones.
    const pg = dialectOf(t.ctx.db) === 'postgres';
    if (pg) {
      await rawRun(
        t.ctx.db,
        sql.raw(`CREATE FUNCTION refuse_one() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF new.number = '6281700005000' THEN RAISE EXCEPTION 'refused'; END IF; RETURN new; END $$`),
      );
      await rawRun(t.ctx.db, sql`CREATE TRIGGER refuse_one BEFORE INSERT ON phone_numbers FOR EACH ROW EXECUTE FUNCTION refuse_one()`);
    } else {
      await rawRun(
        t.ctx.db,
        sql`CREATE TRIGGER refuse_one BEFORE INSERT ON phone_numbers WHEN new.number = '6281700005000'
        BEGIN SELECT RAISE(ABORT, 'refused'); END`,
      );
    }
    try {
      const csv = Array.from({ length: 8000 }, (_, i) => `0817${String(i).padStart(8, '0')},N${i}`).join('\n');
      const res = await upload(csv, 'fail.csv');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ msg: 'Internal server error', code: 'internal' });
      expect(await count()).toBe(before);
    } finally {
      if (pg) {
        await rawRun(t.ctx.db, sql`DROP TRIGGER refuse_one ON phone_numbers`);
        await rawRun(t.ctx.db, sql`DROP FUNCTION refuse_one()`);
      } else await rawRun(t.ctx.db, sql`DROP TRIGGER refuse_one`);
    }
    const retry = await upload(Array.from({ length: 10 }, (_, i) => `0817${String(i).padStart(8, '0')}`).join('\n'), 'ok.csv');
    expect(retry.body.createdCount).toBe(10);
  });

  it('writes a long skipped list to CSV and JSON downloads', async () => {
    const csv = ['number,name', ...Array.from({ length: 1500 }, (_, i) => `bad${i},=cmd${i}`), '081800000001,Good'].join('\n');
    const res = await upload(csv, 'many.csv');
    expect(res.body).toMatchObject({ createdCount: 1, skippedCount: 1500 });
    expect(res.body.skipped).toHaveLength(1000);
    expect(res.body.skippedFile).toMatch(/^[a-f0-9]{32}$/);
    const dl = await t.http.get(`/api/admin/phonenumber/skipped/${res.body.skippedFile}?format=csv`).set(admin.auth);
    expect(dl.status).toBe(200);
    expect(dl.headers['content-disposition']).toBe('attachment; filename="phone_numbers_skipped.csv"');
    const lines = dl.text.trim().split('\r\n');
    expect(lines[0]).toBe('number,name,status,reason');
    expect(lines).toHaveLength(1501);
    expect(lines[1]).toBe("bad0,'=cmd0,,nomor tidak valid");
    const json = await t.http.get(`/api/admin/phonenumber/skipped/${res.body.skippedFile}?format=json`).set(admin.auth);
    expect(json.headers['content-disposition']).toBe('attachment; filename="phone_numbers_skipped.json"');
    const parsed = JSON.parse(json.text);
    expect(parsed).toHaveLength(1500);
    expect(parsed[1499]).toEqual({ id: null, number: 'bad1499', name: '=cmd1499', status: '', reason: 'nomor tidak valid' });
    expect((await t.http.get('/api/admin/phonenumber/skipped/0123456789abcdef0123456789abcdef?format=csv').set(admin.auth)).status).toBe(404);
  });

  it('keeps the list figures equal to the rows through imports, a cancelled one included', async () => {
    const rows = async () => {
      const r = await rawGet<{ n: number; active: number; blasted: number }>(
        t.ctx.db,
        sql`SELECT count(*) AS n, coalesce(sum(CASE WHEN status = 'active' THEN 1 ELSE 0 END), 0) AS active,
            coalesce(sum(CASE WHEN count_success > 0 THEN 1 ELSE 0 END), 0) AS blasted FROM phone_numbers`,
      );
      return { total: Number(r?.n), active: Number(r?.active), blasted: Number(r?.blasted) };
    };
    await optOut(t.ctx.db, '081900500002', 'Balasan STOP');
    const csv = ['081900500001,Satu', '081900500002,Berhenti', '081900500003,Tiga', '081900500001,Ulang', 'x', ...Array.from({ length: 3000 }, (_, i) => `0819006${String(i).padStart(5, '0')}`)].join('\n');
    const res = await upload(csv, 'figures.csv');
    expect(res.body).toMatchObject({ createdCount: 3002, skippedCount: 3 });
    expect(await phoneListFigures(t.ctx.db)).toEqual(await rows());
    const page = await t.http.get('/api/admin/phonenumber/list-per-page').set(admin.auth);
    expect(page.body.meta.total).toBe((await rows()).total);

    // Cancelled at its first progress report (a worker is then still far from its last of 100 batches):
    // nothing is added and the figures stay.
    const before = await rows();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cancel-'));
    try {
      const file = path.join(dir, 'cancel.csv');
      fs.writeFileSync(file, Array.from({ length: 20_000 }, (_, i) => `0819007${String(i).padStart(5, '0')}`).join('\n'));
      const gone = new AbortController();
      const cancelled = importPhoneNumbers(t.ctx.db, file, 'csv', {
        skippedDir: path.join(dir, 'skipped'),
        batchSize: 200,
        signal: gone.signal,
        onProgress: () => gone.abort(),
      });
      await expect(cancelled).rejects.toBeInstanceOf(ImportAborted);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(await rows()).toEqual(before);
    expect(await phoneListFigures(t.ctx.db)).toEqual(before);
  });

  // PostgreSQL cancels the running insert when the client leaves during the final transaction.
  it.runIf(isPostgresUrl(process.env.DATABASE_URL ?? ''))('cancels the final insert at once when the import is aborted while it runs', async () => {
    const before = await count();
    await rawRun(t.ctx.db, sql.raw(`CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(20); RETURN NULL; END $$`));
    await rawRun(t.ctx.db, sql`CREATE TRIGGER slow_insert BEFORE INSERT ON phone_numbers FOR EACH STATEMENT EXECUTE FUNCTION slow_insert()`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cancel-'));
    try {
      const file = path.join(dir, 'slow.csv');
      fs.writeFileSync(file, Array.from({ length: 100 }, (_, i) => `0819008${String(i).padStart(5, '0')}`).join('\n'));
      const gone = new AbortController();
      const started = Date.now();
      const cancelled = importPhoneNumbers(t.ctx.db, file, 'csv', {
        skippedDir: path.join(dir, 'skipped'),
        signal: gone.signal,
        onProgress: (p) => {
          if (p.phase === 'saving') setTimeout(() => gone.abort(), 300);
        },
      });
      await expect(cancelled).rejects.toBeInstanceOf(ImportAborted);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await rawRun(t.ctx.db, sql`DROP TRIGGER slow_insert ON phone_numbers`);
      await rawRun(t.ctx.db, sql`DROP FUNCTION slow_insert()`);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(await count()).toBe(before);
    // The connection went back to the pool in a usable state.
    const next = await upload('081900900001\n', 'next.csv');
    expect(next.body.createdCount).toBe(1);
  });

  it('reports progress on the importing user\'s own channel', async () => {
    const socket = t.socket(admin.token);
    await connected(socket);
    const saving = nextMessage<{ importId: string; phase: string; rows: number; totalBytes: number }>(
      socket,
      String(admin.id),
      (m) => m.event === 'phonenumber-import' && m.data.phase === 'saving',
      // A worker thread starts first on a database file; a busy machine makes that slow.
      30_000,
    );
    const csv = Array.from({ length: 300 }, (_, i) => `0819${String(i).padStart(8, '0')}`).join('\n');
    await upload(csv, 'p.csv', '?importId=abc123').expect(200);
    const msg = await saving;
    expect(msg.data).toMatchObject({ importId: 'abc123', phase: 'saving', rows: 300, totalBytes: Buffer.byteLength(csv) });
  });
});
});
