import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { FakeGraph } from '../fakes/graph';
import { DEMO } from './helpers';
import { freePort } from '../net';

/**
 * A member links a WhatsApp Business number on /whatsapp/create through 'Login dengan Cloud API' and
 * starts a blast from it. The server runs GATEWAY=cloud-api against a local fake of Meta's Graph API
 * (its own process, beside the suite's demo server).
 */

const NUMBER = { phoneNumberId: '110000000000777', token: 'EAAGe2etoken0777', display_phone_number: '+62 812-3450-0777', verified_name: 'Toko Awan' };
const WABA = '102938475610';
const PASSWORD = 'demo12345';

const fake = new FakeGraph();
let server: ChildProcess;
let base = '';
let dataDir = '';

test.beforeAll(async () => {
  await fake.start();
  fake.addNumber(NUMBER);
  fake.addTemplate({ wabaId: WABA, name: 'promo_awan', language: 'id', status: 'APPROVED', body: 'Promo untuk {{1}}' });
  fake.addTemplate({ wabaId: WABA, name: 'promo_tunggu', language: 'id', status: 'PENDING', body: 'Promo untuk {{1}}' });
  const port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-cloud-e2e-'));
  server = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO: 'true',
      GATEWAY: 'cloud-api',
      CLOUD_API_BASE_URL: fake.url,
      CLOUD_API_APP_SECRET: 'e2e-app-secret',
      CLOUD_API_VERIFY_TOKEN: 'e2e-verify-token',
      SIM_LATENCY_MS: '0',
      SIM_FAILURE_RATE: '0',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  base = `http://localhost:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/api/config`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the Cloud API server did not start');
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((r) => server?.once('exit', r));
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a member links a Cloud API number and starts a blast that sends the approved template', async ({ page }) => {
  // An admin maps the demo's message to an approved WhatsApp template, and adds a few receivers.
  const adminLogin = await page.request.post(`${base}/api/auth/login`, { data: { email: DEMO.admin, password: PASSWORD } });
  const adminToken = ((await adminLogin.json()) as { token: string }).token;
  const admin = { Authorization: `Bearer ${adminToken}` };
  const created = await page.request.post(`${base}/api/admin/message/create`, {
    headers: admin,
    multipart: { text: '<p>Promo untuk {name}</p>', status: 'active', waTemplateName: 'promo_awan', waTemplateLanguage: 'id', waTemplateParams: JSON.stringify(['{name}']) },
  });
  expect(created.status()).toBe(201);
  for (let i = 0; i < 5; i++) {
    const saved = await page.request.post(`${base}/api/admin/phonenumber/save`, { headers: admin, data: { number: `6281377700${String(i).padStart(3, '0')}`, name: `Awan ${i}` } });
    expect(saved.ok()).toBeTruthy();
  }

  const login = await page.request.post(`${base}/api/auth/login`, { data: { email: DEMO.member, password: PASSWORD } });
  const body = (await login.json()) as { token: string; user: { id: number } };
  await page.context().addCookies([
    { name: 'authToken', value: body.token, domain: 'localhost', path: '/' },
    { name: 'user', value: encodeURIComponent(JSON.stringify(body.user)), domain: 'localhost', path: '/' },
  ]);

  await page.goto(`${base}/whatsapp`);
  await expect(page.getByRole('table')).toBeVisible();
  await page.goto(`${base}/whatsapp/create`);
  await page.getByText('Login dengan Cloud API').click();
  await page.getByLabel('Phone Number ID').fill(NUMBER.phoneNumberId);
  await page.getByLabel('WhatsApp Business Account ID').fill(WABA);
  await page.getByLabel('Access Token').fill(NUMBER.token);
  await page.getByRole('button', { name: 'Simpan' }).click();
  // Saved: the app goes back one page, to the list, where the number shows under its verified name.
  await expect(page).toHaveURL(/\/whatsapp$/);
  const row = page.getByRole('row').filter({ hasText: NUMBER.verified_name });
  await expect(row).toBeVisible();
  await expect(fake.requests.some((r) => r.method === 'GET' && r.phoneNumberId === NUMBER.phoneNumberId)).toBe(true);

  await row.getByRole('button', { name: 'Start Blast' }).click();
  // The template reaches Graph as the approved one, with the receiver's name as its body parameter.
  await expect.poll(() => fake.sends(NUMBER.phoneNumberId).length, { timeout: 20_000 }).toBeGreaterThan(0);
  const first = fake.sends(NUMBER.phoneNumberId)[0]!.body as { type: string; template: { name: string; language: { code: string }; components: Array<{ parameters: Array<{ text: string }> }> } };
  expect(first.type).toBe('template');
  expect(first.template.name).toBe('promo_awan');
  expect(first.template.language.code).toBe('id');
  expect(first.template.components[0]!.parameters[0]!.text).toMatch(/\S/);
  // The list's success counter rises from the live events.
  const ok = row.locator('td').nth(2);
  await expect.poll(async () => Number((await ok.textContent())?.replace(/\./g, '')), { timeout: 20_000 }).toBeGreaterThan(0);
});

test("a blast Meta ends (the template paused) tells the member why, in the console's words", async ({ page }) => {
  const adminLogin = await page.request.post(`${base}/api/auth/login`, { data: { email: DEMO.admin, password: PASSWORD } });
  const admin = { Authorization: `Bearer ${((await adminLogin.json()) as { token: string }).token}` };
  for (let i = 0; i < 3; i++) {
    const saved = await page.request.post(`${base}/api/admin/phonenumber/save`, { headers: admin, data: { number: `6281377701${String(i).padStart(3, '0')}`, name: `Jeda ${i}` } });
    expect(saved.ok()).toBeTruthy();
  }
  // From now on Graph answers every send of this number with 'Template is Paused' (132015).
  fake.program({ phoneNumberId: NUMBER.phoneNumberId, outcome: 'template_paused' });

  const login = await page.request.post(`${base}/api/auth/login`, { data: { email: DEMO.member, password: PASSWORD } });
  const body = (await login.json()) as { token: string; user: { id: number } };
  await page.context().addCookies([
    { name: 'authToken', value: body.token, domain: 'localhost', path: '/' },
    { name: 'user', value: encodeURIComponent(JSON.stringify(body.user)), domain: 'localhost', path: '/' },
  ]);
  await page.goto(`${base}/whatsapp`);
  const row = page.getByRole('row').filter({ hasText: NUMBER.verified_name });
  // The first test's blast may still be running into the refusal; otherwise start one.
  const start = row.getByRole('button', { name: 'Start Blast' });
  await expect(start.or(row.getByRole('button', { name: 'Stop Blast' }))).toBeVisible();
  if (await start.isVisible()) await start.click();
  await expect(page.getByText(`Blast ${NUMBER.verified_name} berhenti`)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Template WhatsApp ditolak Meta (tidak ada, dijeda, dinonaktifkan, atau parameternya tidak cocok)')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Start Blast' })).toBeVisible();
});

test("saving a template whose WhatsApp template Meta has not approved shows Meta's answer before going back", async ({ page }) => {
  const adminLogin = await page.request.post(`${base}/api/auth/login`, { data: { email: DEMO.admin, password: PASSWORD } });
  const adminBody = (await adminLogin.json()) as { token: string; user: { id: number } };
  const admin = { Authorization: `Bearer ${adminBody.token}` };
  // A business number is linked (by the first test, or here when this one runs alone).
  const memberLogin = await page.request.post(`${base}/api/auth/login`, { data: { email: DEMO.member, password: PASSWORD } });
  const memberToken = ((await memberLogin.json()) as { token: string }).token;
  const linked = await page.request.post(`${base}/api/admin/whatsapp/cloud-link`, {
    headers: { Authorization: `Bearer ${memberToken}` },
    data: { phoneNumberId: NUMBER.phoneNumberId, wabaId: WABA, accessToken: NUMBER.token },
  });
  expect([200, 409]).toContain(linked.status());
  // Not active, so no running blast picks it.
  const created = await page.request.post(`${base}/api/admin/message/create`, {
    headers: admin,
    multipart: { text: '<p>Periksa Meta {name}</p>', status: 'nonactive', waTemplateName: 'promo_awan', waTemplateLanguage: 'id', waTemplateParams: JSON.stringify(['{name}']) },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { message: { id: number } }).message.id;

  await page.context().addCookies([
    { name: 'authToken', value: adminBody.token, domain: 'localhost', path: '/' },
    { name: 'user', value: encodeURIComponent(JSON.stringify(adminBody.user)), domain: 'localhost', path: '/' },
  ]);
  await page.goto(`${base}/message`);
  await page.goto(`${base}/message/edit?id=${id}`);
  const name = page.getByLabel('Nama Template WhatsApp');
  await expect(name).toHaveValue('promo_awan');
  await name.fill('promo_tunggu');
  await page.getByRole('button', { name: 'Simpan' }).click();

  const dialog = page.getByRole('dialog', { name: 'Template pesan tersimpan, tetapi template WhatsApp-nya perlu diperiksa' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveText([`Template WhatsApp "promo_tunggu" (id) di WABA ${WABA} berstatus PENDING, belum APPROVED.`]);
  await expect(dialog.getByText('Blast dari akun Cloud API dengan template ini akan ditolak Meta sampai hal di atas diperbaiki.')).toBeVisible();
  // Saved all the same; closing the dialog goes back to the list.
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/message$/);
  const stored = await page.request.get(`${base}/api/admin/message/${id}`, { headers: admin });
  expect(((await stored.json()) as { message: { waTemplateName: string } }).message.waTemplateName).toBe('promo_tunggu');
});
