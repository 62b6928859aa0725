import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { FakeGraph } from '../fakes/graph';
import { one } from '../../server/src/db/raw';
import { whatsapps } from '../../server/src/db/schema';

const fake = new FakeGraph();
const A = { phoneNumberId: '120000000000001', token: 'EAAGwabatoken001', display_phone_number: '+62 812-3460-0001', verified_name: 'Toko Satu', wabaId: '200000000000001' };
const B = { phoneNumberId: '120000000000002', token: 'EAAGwabatoken002', display_phone_number: '+62 812-3460-0002', verified_name: 'Toko Dua', wabaId: '200000000000002' };

let t: TestApp;
let member: TestUser;
beforeAll(async () => {
  await fake.start();
  fake.addNumber(A);
  fake.addNumber(B);
  t = await startTestApp({
    gateway: 'cloud-api',
    cloud: { baseUrl: fake.url, appSecret: 'test-app-secret', verifyToken: 'test-verify-token', ratePerSecond: 80, publicUrl: 'https://blast.example.com' },
  });
  member = await t.user('member');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const link = (n: { phoneNumberId: string; token: string }, wabaId: string) =>
  t.http.post('/api/admin/whatsapp/cloud-link').set(member.auth).send({ phoneNumberId: n.phoneNumberId, wabaId, accessToken: n.token });
const saved = (n: { phoneNumberId: string }) => one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.deviceId, `cloud-${n.phoneNumberId}`)));

describe('linking a Cloud API number checks its WhatsApp Business Account', () => {
  it('refuses a number that is not under the WABA ID given, and a WABA ID Graph does not know, saving nothing', async () => {
    const other = await link(B, A.wabaId);
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual({ wabaId: 'Phone Number ID tidak terdaftar di WABA ID ini' });
    expect(other.body.code).toBe('cloud_not_in_waba');
    const unknown = await link(B, '299999999999999');
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ wabaId: 'WABA ID tidak ditemukan' });
    expect(unknown.body.code).toBe('cloud_waba_not_found');
    expect(await saved(B)).toBeUndefined();
  });

  it("saves a number under its own WABA ID, asking Graph for the WABA's numbers with the number's token", async () => {
    const res = await link(A, A.wabaId);
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('Akun WhatsApp berhasil disimpan');
    expect((await saved(A))?.cloudWabaId).toBe(A.wabaId);
    const asked = fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/${A.wabaId}/phone_numbers`));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.at(-1)!.authorization).toBe(`Bearer ${A.token}`);
  });
});
