import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodeFor } from '../../common/errors';
import { FakeGraph } from '../fakes/graph';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

/**
 * A template's WhatsApp mapping is checked with Meta when it is saved: one message_templates request per
 * WABA of the linked Cloud API numbers, and a warning for each WABA where the mapping would not send.
 */

const WABA_A = '201000000000001';
const WABA_B = '202000000000002';
const NUMBERS = {
  a1: { phoneNumberId: '120000000000011', token: 'EAAGchecktokenA1', display_phone_number: '+62 812-3460-0011', verified_name: 'Toko A1', wabaId: WABA_A },
  a2: { phoneNumberId: '120000000000012', token: 'EAAGchecktokenA2', display_phone_number: '+62 812-3460-0012', verified_name: 'Toko A2', wabaId: WABA_A },
  b1: { phoneNumberId: '120000000000021', token: 'EAAGchecktokenB1', display_phone_number: '+62 812-3460-0021', verified_name: 'Toko B1', wabaId: WABA_B },
};
const TOKENS = Object.values(NUMBERS).map((n) => n.token);
const TIMEOUT_MS = 1500;

const fake = new FakeGraph();
let t: TestApp;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  await fake.start();
  for (const n of Object.values(NUMBERS)) fake.addNumber(n);
  t = await startTestApp({
    gateway: 'cloud-api',
    cloud: { baseUrl: fake.url, appSecret: 'test-app-secret', verifyToken: 'test-verify-token', ratePerSecond: 80, publicUrl: null, timeoutMs: TIMEOUT_MS },
  });
  admin = await t.user('admin');
  member = await t.user('member');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

interface Warning {
  code: string;
  msg: string;
  params: Record<string, string>;
  wabaId: string;
}
interface Check {
  wabas: string[];
  warnings: Warning[];
}

function save(fields: Record<string, string>, id?: number) {
  const req = id ? t.http.put(`/api/admin/message/${id}`).set(admin.auth) : t.http.post('/api/admin/message/create').set(admin.auth);
  for (const [k, v] of Object.entries(fields)) void req.field(k, v);
  return req;
}
const mapping = (name: string, language: string, params: string[]) => ({
  text: `<p>Halo {name}, ${name}</p>`,
  waTemplateName: name,
  waTemplateLanguage: language,
  waTemplateParams: JSON.stringify(params),
});
const byWaba = (check: Check) => Object.fromEntries(check.warnings.map((w) => [w.wabaId, w]));

async function linkAll() {
  for (const n of Object.values(NUMBERS)) {
    const res = await t.http.post('/api/admin/whatsapp/cloud-link').set(member.auth).send({ phoneNumberId: n.phoneNumberId, wabaId: n.wabaId, accessToken: n.token });
    expect(res.status).toBe(200);
  }
}

describe("a template's WhatsApp mapping checked with Meta on save", () => {
  it('asks nothing while no Cloud API number is linked, nor for a template without a WhatsApp template name', async () => {
    const res = await save(mapping('promo_sebelum', 'id', ['{name}']));
    expect(res.status).toBe(201);
    expect(res.body.waTemplateCheck).toBeNull();
    expect(fake.templateLookups()).toHaveLength(0);

    await linkAll();
    const plain = await save({ text: '<p>Tanpa template WhatsApp</p>' });
    expect(plain.status).toBe(201);
    expect(plain.body.waTemplateCheck).toBeNull();
    expect(fake.templateLookups()).toHaveLength(0);
  });

  it('asks each WABA once, with a token of one of its numbers, and warns of nothing when the mapping will send', async () => {
    for (const waba of [WABA_A, WABA_B]) {
      fake.addTemplate({ wabaId: waba, name: 'promo_cocok', language: 'id', status: 'APPROVED', body: 'Halo {{1}}, nomor {{2}}. Promo untuk {{1}}!' });
      // Graph's name filter also lists names that contain it: not the template asked for.
      fake.addTemplate({ wabaId: waba, name: 'promo_cocok_lama', language: 'id', status: 'REJECTED', body: 'Halo' });
    }
    const before = fake.templateLookups().length;
    const res = await save(mapping('promo_cocok', 'id', ['{name}', '{phoneNumber}']));
    expect(res.status).toBe(201);
    expect(res.body.waTemplateCheck).toEqual({ wabas: [WABA_A, WABA_B], warnings: [] });
    const lookups = fake.templateLookups().slice(before);
    expect(lookups.map((r) => r.phoneNumberId).sort()).toEqual([WABA_A, WABA_B]);
    expect(lookups.every((r) => r.query?.name === 'promo_cocok')).toBe(true);
    expect(lookups.find((r) => r.phoneNumberId === WABA_A)!.authorization).toBe(`Bearer ${NUMBERS.a1.token}`);
    expect(lookups.find((r) => r.phoneNumberId === WABA_B)!.authorization).toBe(`Bearer ${NUMBERS.b1.token}`);
    for (const token of TOKENS) expect(JSON.stringify(res.body)).not.toContain(token);
  });

  it('saves a name Meta does not know, or knows only in another language, and says so per WABA', async () => {
    fake.addTemplate({ wabaId: WABA_A, name: 'promo_bahasa', language: 'id', status: 'APPROVED', body: 'Halo {{1}}' });
    fake.addTemplate({ wabaId: WABA_B, name: 'promo_bahasa', language: 'en_US', status: 'APPROVED', body: 'Hello {{1}}' });
    fake.addTemplate({ wabaId: WABA_B, name: 'promo_bahasa', language: 'en', status: 'APPROVED', body: 'Hello {{1}}' });

    const typo = await save(mapping('promo_cocokk', 'id', ['{name}']));
    expect(typo.status).toBe(201);
    const missing = byWaba(typo.body.waTemplateCheck);
    expect(missing[WABA_A]).toMatchObject({ code: 'wa_check_not_found', msg: `Template WhatsApp "promo_cocokk" tidak ditemukan di WABA ${WABA_A}.` });
    expect(missing[WABA_B]).toMatchObject({ code: 'wa_check_not_found', params: { template: 'promo_cocokk', waba: WABA_B } });
    // Saved as given: the warning refuses nothing.
    const stored = await t.http.get(`/api/admin/message/${typo.body.message.id}`).set(admin.auth);
    expect(stored.body.message).toMatchObject({ waTemplateName: 'promo_cocokk', waTemplateLanguage: 'id' });

    const language = await save(mapping('promo_bahasa', 'id', ['{name}']));
    expect(language.body.waTemplateCheck.warnings).toEqual([
      {
        code: 'wa_check_language',
        msg: `Template WhatsApp "promo_bahasa" di WABA ${WABA_B} tidak ada dalam bahasa id (ada: en, en_US).`,
        params: { template: 'promo_bahasa', language: 'id', languages: 'en, en_US', waba: WABA_B },
        wabaId: WABA_B,
      },
    ]);
  });

  it('warns of a template Meta has not approved and of a body-parameter count the mapping does not give, on create and edit', async () => {
    fake.addTemplate({ wabaId: WABA_A, name: 'promo_tunggu', language: 'id', status: 'PENDING', body: 'Halo {{1}}' });
    fake.addTemplate({ wabaId: WABA_B, name: 'promo_tunggu', language: 'id', status: 'APPROVED', body: 'Halo {{1}}, nomor {{2}}' });
    const created = await save(mapping('promo_tunggu', 'id', ['{name}']));
    expect(created.status).toBe(201);
    const warnings = byWaba(created.body.waTemplateCheck);
    expect(warnings[WABA_A]).toMatchObject({
      code: 'wa_check_status',
      msg: `Template WhatsApp "promo_tunggu" (id) di WABA ${WABA_A} berstatus PENDING, belum APPROVED.`,
      params: { status: 'PENDING' },
    });
    expect(warnings[WABA_B]).toMatchObject({
      code: 'wa_check_params',
      msg: `Body template WhatsApp "promo_tunggu" (id) di WABA ${WABA_B} punya 2 parameter, pemetaan memberi 1.`,
      params: { expected: '2', given: '1' },
    });

    // Meta approves in WABA A; the edit gives both parameters: nothing left to warn of.
    fake.templates.find((x) => x.wabaId === WABA_A && x.name === 'promo_tunggu')!.status = 'APPROVED';
    fake.templates.find((x) => x.wabaId === WABA_A && x.name === 'promo_tunggu')!.body = 'Halo {{1}}, nomor {{2}}';
    const edited = await save(mapping('promo_tunggu', 'id', ['{name}', '{phoneNumber}']), created.body.message.id);
    expect(edited.status).toBe(200);
    expect(edited.body.waTemplateCheck).toEqual({ wabas: [WABA_A, WABA_B], warnings: [] });

    // An edit that drops a parameter is told so.
    const dropped = await save(mapping('promo_tunggu', 'id', []), created.body.message.id);
    expect(dropped.status).toBe(200);
    expect(dropped.body.waTemplateCheck.warnings.map((w: Warning) => [w.wabaId, w.code, w.params.expected, w.params.given])).toEqual([
      [WABA_A, 'wa_check_params', '2', '0'],
      [WABA_B, 'wa_check_params', '2', '0'],
    ]);
  });

  it('warns of a template with named parameters, which the console cannot fill', async () => {
    for (const waba of [WABA_A, WABA_B]) {
      fake.addTemplate({ wabaId: waba, name: 'promo_nama', language: 'id', status: 'APPROVED', body: 'Halo {{first_name}}', parameter_format: 'NAMED' });
    }
    const res = await save(mapping('promo_nama', 'id', ['{name}']));
    expect(res.body.waTemplateCheck.warnings.map((w: Warning) => w.code)).toEqual(['wa_check_named', 'wa_check_named']);
  });

  it('saves when Graph fails, refuses the token or does not answer, and says the template could not be checked', async () => {
    for (const waba of [WABA_A, WABA_B]) fake.addTemplate({ wabaId: waba, name: 'promo_gagal', language: 'id', status: 'APPROVED', body: 'Halo {{1}}' });

    fake.templateFailures.set(WABA_A, 'token_expired');
    fake.templateFailures.set(WABA_B, 'server_error');
    const failed = await save(mapping('promo_gagal', 'id', ['{name}']));
    expect(failed.status).toBe(201);
    const warnings = byWaba(failed.body.waTemplateCheck);
    expect(warnings[WABA_A]).toMatchObject({
      code: 'wa_check_token',
      msg: `Template WhatsApp tidak dapat diperiksa di WABA ${WABA_A}: token akses akun Cloud API tidak valid atau kedaluwarsa.`,
    });
    expect(warnings[WABA_B]).toMatchObject({ code: 'wa_check_unavailable', msg: `Template WhatsApp tidak dapat diperiksa di WABA ${WABA_B}: Meta tidak dapat dihubungi.` });
    for (const token of TOKENS) expect(JSON.stringify(failed.body)).not.toContain(token);
    const stored = await t.http.get(`/api/admin/message/${failed.body.message.id}`).set(admin.auth);
    expect(stored.body.message.waTemplateName).toBe('promo_gagal');

    // WABA B never answers: the save waits the gateway's timeout, not longer, and WABA A is still checked.
    fake.templateFailures.delete(WABA_A);
    fake.templateFailures.set(WABA_B, 'hang');
    const started = Date.now();
    const slow = await save(mapping('promo_gagal', 'id', ['{name}']), failed.body.message.id);
    const took = Date.now() - started;
    fake.templateFailures.delete(WABA_B);
    expect(slow.status).toBe(200);
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(took).toBeLessThan(TIMEOUT_MS + 2000);
    expect(slow.body.waTemplateCheck.warnings).toEqual([expect.objectContaining({ code: 'wa_check_unavailable', wabaId: WABA_B })]);
  });

  it("gives every warning in the catalogue's words, so the console shows it in its language", async () => {
    const res = await save(mapping('promo_tidak_ada', 'en_US', ['{name}']));
    expect(res.body.waTemplateCheck.warnings).toHaveLength(2);
    for (const w of res.body.waTemplateCheck.warnings as Warning[]) expect(errorCodeFor(w.msg)).toEqual({ code: w.code, params: w.params });
  });
});
