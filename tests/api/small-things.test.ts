import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { phoneNumbers } from '../../server/src/db/schema';

const mode = (p: string) => fs.statSync(p).mode & 0o777;

let t: TestApp;
let admin: TestUser;
let umask: number;

beforeAll(async () => {
  // The widest umask: whatever the server makes must still be its user's alone.
  umask = process.umask(0);
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(async () => {
  process.umask(umask);
  await t.close();
});

const importFile = (content: Buffer | string, name: string) => t.http.post('/api/admin/phonenumber/import').set(admin.auth).attach('file', Buffer.from(content), name);

describe('files and folders under DATA_DIR are 0700/0600 whatever the umask', () => {
  it('tmp/, tmp/imports, tmp/skipped, uploads/ and the files written into them', async () => {
    const dir = t.ctx.config.dataDir;
    // An import whose skipped list is long enough to be written to files.
    const rows = Array.from({ length: 1_200 }, (_, i) => `bukan-${i},Nama ${i}`).join('\n');
    const res = await importFile(rows, 'invalid.csv').expect(200);
    expect(res.body.skippedFile).toBeTruthy();
    const media = await t.http.post('/api/admin/message/create').set(admin.auth).field('message', '<p>Halo</p>').field('title', 'Perm').attach('file', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'x.gif');
    expect(media.status).toBeLessThan(300);
    for (const folder of ['tmp', 'tmp/imports', 'tmp/skipped', 'uploads']) expect(mode(path.join(dir, folder)), folder).toBe(0o700);
    const skipped = fs.readdirSync(path.join(dir, 'tmp/skipped'));
    expect(skipped.length).toBeGreaterThan(0);
    for (const f of skipped) expect(mode(path.join(dir, 'tmp/skipped', f)), f).toBe(0o600);
    const uploaded = fs.readdirSync(path.join(dir, 'uploads')).filter((f) => f.endsWith('.gif'));
    expect(uploaded).toHaveLength(1);
    expect(mode(path.join(dir, 'uploads', uploaded[0]!))).toBe(0o600);
  });
});

describe('contact files in UTF-16 and very wide rows', () => {
  it('reads a UTF-16 file with its byte-order mark (little- and big-endian, CSV and JSON) instead of finding 0 rows', async () => {
    const csv = 'number,name\r\n6281355550001,Ani Ü\r\n6281355550002,Budi\r\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv, 'utf16le')]);
    const res = await importFile(le, 'excel-unicode.csv').expect(200);
    expect(res.body.createdCount).toBe(2);
    const be = Buffer.from(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('6281355550003;Citra\n', 'utf16le').swap16()]));
    expect((await importFile(be, 'be.csv').expect(200)).body.createdCount).toBe(1);
    const json = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify([{ number: '6281355550004', name: 'Dewi' }]), 'utf16le')]);
    expect((await importFile(json, 'list.json').expect(200)).body.createdCount).toBe(1);
    const names = (await t.ctx.db.select({ name: phoneNumbers.name }).from(phoneNumbers)).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['Ani Ü', 'Budi', 'Citra', 'Dewi']));
  });

  it('refuses a row of 10^6 unquoted columns for its columns, not as an unclosed quote', async () => {
    const wide = `${Array.from({ length: 1_000_000 }, (_, i) => i % 10).join(',')}\n6281355550009,Eka\n`;
    const res = await importFile(wide, 'wide.csv');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ msg: 'File CSV tidak valid: baris ke-1 punya lebih dari 1000 kolom.', code: 'csv_too_many_columns' });
    // Wide but short enough to be parsed whole: the same refusal, on its own row.
    const second = await importFile(`6281355550010,Fajar\n${','.repeat(5_000)}\n`, 'wide2.csv');
    expect(second.status).toBe(422);
    expect(second.body.msg).toBe('File CSV tidak valid: baris ke-2 punya lebih dari 1000 kolom.');
    // A long row without quotes or separators is too long, and an open quote is still named.
    const long = await importFile(`6281355550011${'x'.repeat(1_200_000)}\n`, 'long.csv');
    expect(long.body.msg).toBe('File CSV tidak valid: baris ke-1 lebih panjang dari 1 MB.');
    const quote = await importFile(`"6281355550012,${'x'.repeat(1_200_000)}\n`, 'quote.csv');
    expect(quote.body.msg).toBe('File CSV tidak valid: tanda kutip (") di baris ke-1 tidak ditutup, atau baris itu terlalu panjang.');
  });
});
