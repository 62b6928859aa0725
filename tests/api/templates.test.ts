import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
const uploadsDir = () => path.join(t.ctx.config.dataDir, 'uploads');
const fileOf = (media: string) => path.join(uploadsDir(), media.replace('/uploads/', ''));

function create(fields: Record<string, string>, file?: { data: Buffer; name: string }) {
  const req = t.http.post('/api/admin/message/create').set(admin.auth);
  for (const [k, v] of Object.entries(fields)) void req.field(k, v);
  if (file) void req.attach('file', file.data, file.name);
  return req;
}

describe('message templates', () => {
  it('creates a template with bold text, an image and a URL button; sanitises and derives text_wa itself', async () => {
    const res = await create(
      {
        text: '<p>Halo <strong>{name}</strong> <img src=x onerror="alert(1)"><script>alert(1)</script><a href="javascript:alert(1)">x</a></p>',
        text_wa: 'whatever the client says',
        button: JSON.stringify([
          { title: 'Lihat Promo', url: 'https://toko.id/promo', type: 'url_button' },
          { title: '', url: '', type: 'reply_button' },
          { title: '', url: '', type: 'reply_button' },
        ]),
        status: 'active',
      },
      { data: PNG, name: 'Promo Gambar.PNG' },
    );
    expect(res.status).toBe(201);
    const m = res.body.message;
    expect(m.text).toBe('<p>Halo <strong>{name}</strong> <a target="_blank" rel="noopener noreferrer">x</a></p>');
    expect(m.text_wa).toBe('Halo *{name}* x');
    expect(m.button).toEqual([{ id: expect.any(String), title: 'Lihat Promo', url: 'https://toko.id/promo', type: 'url_button' }]);
    expect(m.status).toBe('active');
    expect(m.count_use).toBe(0);
    expect(m.media).toMatch(/^\/uploads\/[0-9]+-[a-f0-9]{24}\.png$/);
    expect(fs.readFileSync(fileOf(m.media))).toEqual(PNG);
    const served = await t.http.get(m.media);
    expect(served.status).toBe(200);
    expect(served.headers['content-security-policy']).toContain('sandbox');
    const list = await t.http.get('/api/admin/message/list-per-page?page=1').set(admin.auth);
    expect(list.body.data[0]).toMatchObject({ id: m.id, text: m.text, media: m.media });
    expect((await t.http.get(`/api/admin/message/${m.id}`).set(admin.auth)).body.message).toMatchObject({ id: m.id, text_wa: 'Halo *{name}* x' });
    expect((await t.http.get('/api/admin/message/list').set(admin.auth)).body.list).toHaveLength(1);
  });

  it('enforces the button rules with the spec alerts', async () => {
    const noUrl = await create({ text: '<p>a</p>', button: JSON.stringify([{ title: 'Beli', url: '', type: 'url_button' }]) });
    expect(noUrl.status).toBe(422);
    expect(noUrl.body.msg).toBe('Judul button : "Beli" belum mempunyai URL.');
    const noTitle = await create({ text: '<p>a</p>', button: JSON.stringify([{ title: '', url: 'https://x.id', type: 'url_button' }]) });
    expect(noTitle.body.msg).toBe('URL button "https://x.id" belum punya nama atau judul.');
    const four = await create({ text: '<p>a</p>', button: JSON.stringify(Array.from({ length: 4 }, (_, i) => ({ title: `B${i}`, url: `r${i}`, type: 'reply_button' }))) });
    expect(four.body.msg).toBe('Maksimal 3 button.');
    const badUrl = await create({ text: '<p>a</p>', button: JSON.stringify([{ title: 'Web', url: 'javascript:alert(1)', type: 'url_button' }]) });
    expect(badUrl.body.msg).toMatch(/harus diawali http/);
    const badType = await create({ text: '<p>a</p>', button: JSON.stringify([{ title: 'X', url: 'y', type: 'evil' }]) });
    expect(badType.status).toBe(422);
    const badCall = await create({ text: '<p>a</p>', button: JSON.stringify([{ title: 'Telp', url: '12', type: 'call_button' }]) });
    expect(badCall.body.msg).toMatch(/tidak valid/);
    const ok = await create({
      text: '',
      button: JSON.stringify([
        { title: 'Telp', url: '0812-3456-7890', type: 'call_button' },
        { title: 'Berhenti', url: 'STOP', type: 'stop_button' },
        { title: 'Ya', url: 'ya', type: 'reply_button' },
      ]),
    });
    expect(ok.status).toBe(201);
    expect(ok.body.message.button.map((b: { type: string }) => b.type)).toEqual(['call_button', 'stop_button', 'reply_button']);
  });

  it('answers "No Data" when there is nothing to send', async () => {
    const res = await create({ text: '<p><br></p>', button: JSON.stringify([{ title: '', url: '', type: 'reply_button' }]) });
    expect(res.status).toBe(422);
    expect(res.body.msg).toBe('No Data');
  });

  it('refuses media over 16 MB with 413 and other file types with 422, keeping nothing on disk', async () => {
    const before = fs.readdirSync(uploadsDir()).length;
    const big = await create({ text: '<p>a</p>' }, { data: Buffer.alloc(16 * 1024 * 1024 + 1), name: 'big.jpg' });
    expect(big.status).toBe(413);
    expect(big.body.msg).toBe('File terlalu besar: media maksimal 16 MB.');
    const exe = await create({ text: '<p>a</p>' }, { data: Buffer.from('MZ'), name: 'run.exe' });
    expect(exe.status).toBe(422);
    expect(exe.body.msg).toMatch(/Jenis file tidak didukung/);
    const refused = await create({ text: '', button: '[]' }, { data: PNG, name: 'ok.png' }).field('status', 'bogus');
    expect(refused.status).toBe(422);
    await new Promise((r) => setTimeout(r, 50));
    expect(fs.readdirSync(uploadsDir()).length).toBe(before);
  });

  it('edits: a new file replaces the old one (removed from disk), removeMedia drops it, delete removes the file', async () => {
    const first = (await create({ text: '<p>v1</p>' }, { data: PNG, name: 'a.png' })).body.message;
    const res = await t.http
      .put(`/api/admin/message/${first.id}`)
      .set(admin.auth)
      .field('text', '<p><em>v2</em></p>')
      .field('status', 'nonactive')
      .attach('file', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'b.svg');
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ text: '<p><em>v2</em></p>', text_wa: '_v2_', status: 'nonactive', button: [] });
    expect(res.body.message.media).toMatch(/\.svg$/);
    await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(fileOf(first.media))).toBe(false);
    const kept = await t.http.put(`/api/admin/message/${first.id}`).set(admin.auth).field('text', '<p>v3</p>');
    expect(kept.body.message.media).toBe(res.body.message.media);
    const dropped = await t.http.put(`/api/admin/message/${first.id}`).set(admin.auth).field('text', '<p>v4</p>').field('removeMedia', 'true');
    expect(dropped.body.message.media).toBeNull();
    const withFile = (await create({ text: '<p>x</p>' }, { data: PNG, name: 'c.png' })).body.message;
    await t.http.delete(`/api/admin/message/${withFile.id}`).set(admin.auth).expect(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(fileOf(withFile.media))).toBe(false);
    expect((await t.http.get(`/api/admin/message/${withFile.id}`).set(admin.auth)).status).toBe(404);
  });

  it('imports templates from JSON with a skipped report for invalid ones', async () => {
    const existing = (await create({ text: '<p>m</p>' }, { data: PNG, name: 'm.png' })).body.message;
    const items = [
      { text: '<p>Satu <b>{name}</b></p>', status: 'active' },
      { text: '<p>Dua</p>', button: [{ title: 'Web', url: '', type: 'url_button' }] },
      { text: '' },
      { text: '<p>Tiga</p>', media: '/uploads/nope.png' },
      { text: '<p>Empat</p>', media: existing.media, button: JSON.stringify([{ title: 'Ya', url: 'ya', type: 'reply_button' }]), status: 'nonactive' },
    ];
    const res = await t.http.post('/api/admin/message/import').set(admin.auth).attach('file', Buffer.from(JSON.stringify(items)), 'messages.json');
    expect(res.status).toBe(200);
    expect(res.body.created.map((m: { text_wa: string; status: string }) => [m.text_wa, m.status])).toEqual([
      ['Satu *{name}*', 'active'],
      ['Empat', 'nonactive'],
    ]);
    expect(res.body.skipped).toEqual([
      { index: 2, text: 'Dua', reason: 'Judul button : "Web" belum mempunyai URL.', reasonCode: 'button_title_without_url' },
      { index: 3, text: '', reason: 'No Data', reasonCode: 'no_data' },
      { index: 4, text: 'Tiga', reason: 'Media "/uploads/nope.png" tidak ditemukan di server.', reasonCode: 'template_media_missing' },
    ]);
    const csv = await t.http.post('/api/admin/message/import').set(admin.auth).attach('file', Buffer.from('a,b'), 'x.csv');
    expect(csv.status).toBe(422);
    expect(csv.body.msg).toBe('File harus berformat .json.');
  });
});
