import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, pressInDialog, signInFast } from './helpers';

interface Account { id: number; deviceId: string; clientid: string; phonenumber: string; pushname: string; state: string }
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function login(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { email, password: 'demo12345' } });
  return ((await res.json()) as { token: string }).token;
}

async function account(request: APIRequestContext, token: string, pushname: string): Promise<Account> {
  const res = await request.get('/api/admin/whatsapp/list', { headers: auth(token) });
  return ((await res.json()) as { list: Account[] }).list.find((a) => a.pushname === pushname)!;
}

/** Fresh registered receivers, so a blast has numbers outside the cooldown whatever ran before. */
async function addReceivers(request: APIRequestContext, adminToken: string, count: number): Promise<void> {
  const res = await request.get(`/api/sim/numbers?registered=true&limit=${count + 600}`);
  const numbers = ((await res.json()) as { numbers: Array<{ number: string; name: string }> }).numbers.slice(600);
  const csv = `number,name\n${numbers.map((n) => `${n.number},${n.name}`).join('\n')}\n`;
  const up = await request.post('/api/admin/phonenumber/import', {
    headers: auth(adminToken),
    multipart: { file: { name: 'receivers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) } },
  });
  expect(up.ok()).toBeTruthy();
}

const rowOf = (page: Page, pushname: string) => page.getByRole('row').filter({ hasText: pushname });

test('a member starts a blast, sees Sending / Generating / Waiting and rising counters, and a target replies STOP on /sim', async ({ page, context }) => {
  const adminToken = await login(page.request, DEMO.admin);
  await addReceivers(page.request, adminToken, 40);
  const { token } = await signInFast(page, DEMO.member);
  const acc = await account(page.request, token, 'Budi Toko Online');
  await page.request.put('/api/admin/whatsapp/interval', { headers: auth(adminToken), data: { id: acc.id, interval: 2 } });

  await page.goto('/whatsapp');
  const row = rowOf(page, 'Budi Toko Online');
  const ok = row.locator('td').nth(2);
  // The counter shows a thousands separator (1.150).
  const count = async () => Number((await ok.textContent())?.replace(/\./g, ''));
  const before = await count();
  await row.getByRole('button', { name: 'Start Blast' }).click();
  // 'Sending...' once started, 'Generating...' while a target's message is under way.
  await row.getByText(/^(Sending|Generating)\.\.\.$/).waitFor();
  await row.getByText(/Waiting \(\d+s\)\.\.\./).waitFor();
  await expect(row.getByText('Waiting (1s)...')).toBeVisible({ timeout: 5000 });
  await expect.poll(count, { timeout: 15_000 }).toBeGreaterThan(before + 1);
  await expect(row.getByRole('button', { name: 'Stop Blast' })).toBeVisible();

  // The last target's phone: the template arrived with its name filled in; it replies STOP.
  const devices = (await (await page.request.get('/api/sim/devices')).json()) as { devices: Array<{ deviceId: string; lastSent: { to: string; text: string } | null }> };
  const last = devices.devices.find((d) => d.deviceId === acc.deviceId)!.lastSent!;
  const found = await page.request.get(`/api/admin/phonenumber/list?search=${last.to}`, { headers: auth(adminToken) });
  const target = ((await found.json()) as { list: Array<{ id: number; number: string; name: string }> }).list.find((n) => n.number === last.to)!;
  expect(last.text).toContain(target.name);
  expect(last.text).not.toContain('{name}');

  const sim = await context.newPage();
  await sim.goto('/sim');
  await sim.getByLabel('Nomor kotak masuk').fill(target.number);
  await expect(sim.getByText(target.name, { exact: false }).first()).toBeVisible();
  await sim.getByRole('combobox', { name: 'Balas ke akun' }).click();
  await sim.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: acc.phonenumber }).first().click();
  await sim.getByLabel('Balasan').fill('Stop');
  await sim.getByRole('button', { name: 'Balas' }).click();

  const admin = await context.browser()!.newContext();
  const adminPage = await admin.newPage();
  await signInFast(adminPage, DEMO.admin);
  await adminPage.goto(`/phonenumber?search=${target.number}`);
  await expect(adminPage.getByRole('row').filter({ hasText: target.number })).toContainText('berhenti berlangganan');

  await row.getByRole('button', { name: 'Stop Blast' }).click();
  const dialog = page.getByRole('dialog');
  if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Stop Blast!' }).click();
  await expect(row.getByRole('button', { name: 'Start Blast' })).toBeVisible();
  await page.request.put('/api/admin/whatsapp/interval', { headers: auth(adminToken), data: { id: acc.id, interval: null } });
  await admin.close();
});

test('Stop while a message is being sent asks Sedang mengirim', async ({ page }) => {
  const adminToken = await login(page.request, DEMO.admin);
  await addReceivers(page.request, adminToken, 300);
  const { token } = await signInFast(page, DEMO.member);
  const acc = await account(page.request, token, 'Budi CS 2');
  // No pause between sends (an admin's setting; a member may only lengthen it): the account is always sending.
  await page.request.put('/api/admin/whatsapp/interval', { headers: auth(adminToken), data: { id: acc.id, interval: 0 } });
  await page.goto('/whatsapp');
  const row = rowOf(page, 'Budi CS 2');
  await row.getByRole('button', { name: 'Start Blast' }).click();
  // Back-to-back sends: the row shows the spec's label for the blast's progressing event.
  await expect(row.getByText('Generating...')).toBeVisible();
  await row.getByRole('button', { name: 'Stop Blast' }).click();
  const dialog = page.getByRole('dialog');
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText('Sedang mengirim');
  await pressInDialog(page, 'Tunggu Aja');
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('button', { name: 'Stop Blast' })).toBeVisible();
  await row.getByRole('button', { name: 'Stop Blast' }).click();
  await pressInDialog(page, 'Stop Blast!');
  await expect(row.getByRole('button', { name: 'Start Blast' })).toBeVisible();
  await page.request.put('/api/admin/whatsapp/interval', { headers: auth(adminToken), data: { id: acc.id, interval: null } });
});

test('starting a disconnected account shows Forbidden and leads to reconnecting it', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.member);
  const acc = await account(page.request, token, 'Budi Promo');
  await page.goto('/whatsapp');
  const row = rowOf(page, 'Budi Promo');
  await row.getByRole('button', { name: 'Start Blast' }).click();
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText('Forbidden');
  await expect(page.locator('.ant-modal-confirm-content')).toHaveText('Sambungan terputus, silahkan sambungkan ulang!');
  await pressInDialog(page, 'OK');
  await expect(page).toHaveURL(new RegExp(`/whatsapp/create\\?r=${acc.id}`));
});
