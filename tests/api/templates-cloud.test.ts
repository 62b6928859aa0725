import fs from 'node:fs';
import os from 'node:os';
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

/** Multipart, as the console's template form sends it. */
function create(fields: Record<string, string>) {
  const req = t.http.post('/api/admin/message/create').set(admin.auth);
  for (const [k, v] of Object.entries(fields)) void req.field(k, v);
  return req;
}
function update(id: number, fields: Record<string, string>) {
  const req = t.http.put(`/api/admin/message/${id}`).set(admin.auth);
  for (const [k, v] of Object.entries(fields)) void req.field(k, v);
  return req;
}
const read = async (id: number) => (await t.http.get(`/api/admin/message/${id}`).set(admin.auth)).body.message;

describe('message templates: the Cloud API template mapping', () => {
  it('stores name, language and body parameters and returns them in every template view', async () => {
    const res = await create({
      text: '<p>Halo {name}</p>',
      waTemplateName: 'promo_november_2',
      waTemplateLanguage: 'id',
      waTemplateParams: JSON.stringify(['{name}', '{phoneNumber}', '{name}']),
    });
    expect(res.status).toBe(201);
    const m = res.body.message;
    expect(m).toMatchObject({ waTemplateName: 'promo_november_2', waTemplateLanguage: 'id', waTemplateParams: ['{name}', '{phoneNumber}', '{name}'] });
    expect(await read(m.id)).toMatchObject({ waTemplateName: 'promo_november_2', waTemplateLanguage: 'id', waTemplateParams: ['{name}', '{phoneNumber}', '{name}'] });
    const page = await t.http.get('/api/admin/message/list-per-page?page=1').set(admin.auth);
    expect(page.body.data.find((r: { id: number }) => r.id === m.id)).toMatchObject({ waTemplateName: 'promo_november_2', waTemplateParams: ['{name}', '{phoneNumber}', '{name}'] });
    const list = await t.http.get('/api/admin/message/list').set(admin.auth);
    expect(list.body.list.find((r: { id: number }) => r.id === m.id)).toMatchObject({ waTemplateLanguage: 'id' });
  });

  it('a template without the mapping answers nulls and an empty list; JSON bodies take an array', async () => {
    const plain = await create({ text: '<p>Tanpa Cloud</p>' });
    expect(plain.status).toBe(201);
    expect(plain.body.message).toMatchObject({ waTemplateName: null, waTemplateLanguage: null, waTemplateParams: [] });
    const json = await t.http
      .post('/api/admin/message/create')
      .set(admin.auth)
      .send({ text: '<p>JSON</p>', waTemplateName: 'hello_world', waTemplateLanguage: 'en_US', waTemplateParams: ['{phoneNumber}'] });
    expect(json.status).toBe(201);
    expect(json.body.message).toMatchObject({ waTemplateName: 'hello_world', waTemplateLanguage: 'en_US', waTemplateParams: ['{phoneNumber}'] });
  });

  it('refuses a bad name, language or parameter under its field', async () => {
    const name = await create({ text: '<p>a</p>', waTemplateName: 'Promo Nov', waTemplateLanguage: 'id' });
    expect(name.status).toBe(422);
    expect(name.body.errors.waTemplateName).toBe('Nama Template WhatsApp hanya boleh huruf kecil, angka dan garis bawah.');
    const long = await create({ text: '<p>a</p>', waTemplateName: 'a'.repeat(513), waTemplateLanguage: 'id' });
    expect(long.status).toBe(422);
    expect(long.body.errors.waTemplateName).toBeTruthy();
    for (const bad of ['indonesia', 'en-US', 'EN', 'en_us']) {
      const lang = await create({ text: '<p>a</p>', waTemplateName: 'promo', waTemplateLanguage: bad });
      expect(lang.status).toBe(422);
      expect(lang.body.errors.waTemplateLanguage).toBe('Bahasa tidak valid (contoh: id, en_US).');
    }
    const missing = await create({ text: '<p>a</p>', waTemplateName: 'promo' });
    expect(missing.status).toBe(422);
    expect(missing.body.msg).toBe('Bahasa wajib diisi bila Nama Template WhatsApp diisi.');
    expect(missing.body.errors).toEqual({ waTemplateLanguage: 'Bahasa wajib diisi bila Nama Template WhatsApp diisi.' });
    expect(missing.body.code).toBe('wa_template_language_required');
    for (const bad of [JSON.stringify(['{name}', '{email}']), 'not json', JSON.stringify({ 0: '{name}' })]) {
      const params = await create({ text: '<p>a</p>', waTemplateName: 'promo', waTemplateLanguage: 'id', waTemplateParams: bad });
      expect(params.status).toBe(422);
      expect(params.body.errors.waTemplateParams).toBe('Parameter template hanya boleh {name} atau {phoneNumber}.');
      expect(params.body.code).toBe('wa_template_params_invalid');
    }
    const many = await create({ text: '<p>a</p>', waTemplateName: 'promo', waTemplateLanguage: 'id', waTemplateParams: JSON.stringify(Array(11).fill('{name}')) });
    expect(many.status).toBe(422);
    expect(many.body.errors.waTemplateParams).toBe('Maksimal 10 parameter template.');
    const count = (await t.http.get('/api/admin/message/list').set(admin.auth)).body.list.length;
    expect(count).toBe(3);
  });

  it('edits the mapping, keeps it when an update leaves it out, and clears it with blank values', async () => {
    const { body } = await create({ text: '<p>Edit</p>', waTemplateName: 'first_one', waTemplateLanguage: 'id', waTemplateParams: '["{name}"]' });
    const id = body.message.id as number;
    const changed = await update(id, { text: '<p>Edit</p>', waTemplateName: 'second_one', waTemplateLanguage: 'en_US', waTemplateParams: '["{phoneNumber}","{name}"]' });
    expect(changed.status).toBe(200);
    expect(changed.body.message).toMatchObject({ waTemplateName: 'second_one', waTemplateLanguage: 'en_US', waTemplateParams: ['{phoneNumber}', '{name}'] });
    const kept = await update(id, { text: '<p>Edit 2</p>' });
    expect(kept.status).toBe(200);
    expect(await read(id)).toMatchObject({ text: '<p>Edit 2</p>', waTemplateName: 'second_one', waTemplateLanguage: 'en_US', waTemplateParams: ['{phoneNumber}', '{name}'] });
    const noLanguage = await update(id, { text: '<p>Edit 2</p>', waTemplateLanguage: '' });
    expect(noLanguage.status).toBe(422);
    expect(noLanguage.body.errors.waTemplateLanguage).toBe('Bahasa wajib diisi bila Nama Template WhatsApp diisi.');
    expect(await read(id)).toMatchObject({ waTemplateLanguage: 'en_US' });
    const cleared = await update(id, { text: '<p>Edit 2</p>', waTemplateName: '', waTemplateLanguage: '', waTemplateParams: '[]' });
    expect(cleared.status).toBe(200);
    expect(await read(id)).toMatchObject({ waTemplateName: null, waTemplateLanguage: null, waTemplateParams: [] });
  });

  it('the JSON import takes the mapping too and skips an item whose mapping is invalid', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpl-cloud-'));
    const file = path.join(dir, 'messages.json');
    fs.writeFileSync(
      file,
      JSON.stringify([
        { text: '<p>Impor</p>', waTemplateName: 'imported_one', waTemplateLanguage: 'id', waTemplateParams: ['{name}'] },
        { text: '<p>Salah</p>', waTemplateName: 'imported_two' },
      ]),
    );
    const res = await t.http.post('/api/admin/message/import').set(admin.auth).attach('file', file);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(res.status).toBe(200);
    expect(res.body.created).toHaveLength(1);
    expect(res.body.created[0]).toMatchObject({ waTemplateName: 'imported_one', waTemplateLanguage: 'id', waTemplateParams: ['{name}'] });
    expect(res.body.skipped).toEqual([expect.objectContaining({ index: 2, reason: 'Bahasa wajib diisi bila Nama Template WhatsApp diisi.' })]);
  });
});
