import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import fs from 'node:fs';
import { DEMO, pressInDialog, signInFast } from './helpers';

/** Links a connected WhatsApp account for the signed-in user through the console's calls and /sim. */
async function linkAccount(request: APIRequestContext, token: string, pushname: string): Promise<{ id: number; deviceId: string }> {
  const headers = { Authorization: `Bearer ${token}` };
  const deviceId = `id-${Date.now()}-${Math.floor(Math.random() * 10000)}`;
  expect((await request.post('/api/admin/whatsapp/new-client', { headers, data: { deviceId } })).ok()).toBeTruthy();
  const qr = (await (await request.get(`/api/admin/whatsapp/qr-new-client/${deviceId}`, { headers })).json()) as { qr: string };
  expect((await request.post('/api/sim/scan', { data: { qr: qr.qr, pushname } })).ok()).toBeTruthy();
  const linked = (await (await request.get(`/api/admin/whatsapp/listen-message-created/${deviceId}`, { headers })).json()) as { message: Record<string, unknown> };
  const saved = await request.post('/api/admin/whatsapp/save', { headers, data: { ...linked.message, user_id: null } });
  expect(saved.ok()).toBeTruthy();
  return ((await saved.json()) as { whatsapp: { id: number; deviceId: string } }).whatsapp;
}

async function chooseAccount(page: Page, pushname: string): Promise<void> {
  await page.getByRole('combobox', { name: 'WhatsApp' }).click();
  await page.locator('.ant-select-item-option', { hasText: pushname }).click();
}

test('staff runs a generator, watches it reach 100.00 live and downloads the CSV', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.staff);
  const pushname = `Gen E2E ${Date.now() % 100000}`;
  await linkAccount(page.request, token, pushname);
  const registered = (await (await page.request.get('/api/sim/numbers?registered=true&limit=1')).json()) as { numbers: Array<{ number: string }> };
  const start = registered.numbers[0]!.number;
  const end = (BigInt(start) + 4n).toString();

  await page.goto('/generator/create');
  await expect(page.getByRole('heading', { name: 'Tambah Akun Generator' })).toBeVisible();
  await expect(page.locator('input[name="interval_min"]')).toHaveValue('1');
  await expect(page.locator('input[name="interval_max"]')).toHaveValue('2');
  const submit = page.getByRole('button', { name: 'Simpan' });
  await expect(submit).toBeDisabled();
  await page.locator('input[name="start_number"]').fill(end);
  await page.locator('input[name="end_number"]').fill(start);
  await chooseAccount(page, pushname);
  await submit.click();
  await expect(page.getByText('Target nomor awal harus lebih kecil dari nomor akhir')).toBeVisible();
  await page.locator('input[name="start_number"]').fill(start);
  await page.locator('input[name="end_number"]').fill(end);
  await page.locator('input[name="interval_min"]').fill('3');
  await page.locator('input[name="interval_max"]').fill('1');
  await submit.click();
  await expect(page.getByText('Interval minimal harus lebih kecil dari interval maksimal')).toBeVisible();
  await page.locator('input[name="interval_min"]').fill('0');
  await submit.click();

  await expect(page).toHaveURL(/\/generator\/list/);
  await expect(page.getByRole('heading', { name: 'Daftar Generator' })).toBeVisible();
  const row = page.locator('tr', { hasText: `${start} - ${end}` });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('progress')).toHaveText('0.00%');
  await row.getByRole('button', { name: 'Start' }).click();
  await expect(row.getByTestId('progress')).toHaveText('100.00%', { timeout: 20_000 });
  await expect(row.getByTestId('job-status')).toHaveText('Selesai');
  await expect(row.getByTestId('current-number')).toHaveText(end);
  const success = Number(await row.getByTestId('count-success').textContent());
  const fail = Number(await row.getByTestId('count-fail').textContent());
  expect(success + fail).toBe(5);
  expect(success).toBeGreaterThan(0);

  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('phone_numbers_generated.csv');
  const csv = fs.readFileSync((await file.path())!, 'utf8').trim().split(/\r?\n/);
  expect(csv[0]).toBe('number,name,status');
  expect(csv).toHaveLength(success + 1);
  expect(csv[1]).toMatch(new RegExp(`^${start},.+,active$`));

  await row.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(/\/generator\/create\?id=\d+/);
  await expect(page.locator('input[name="start_number"]')).toHaveValue(start);
  await expect(page.locator('input[name="start_number"]')).toBeDisabled();
  await expect(page.locator('input[name="end_number"]')).toBeDisabled();
});

test('a validator is created from an uploaded file; its Target File link shows the last 20 characters', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.staff);
  const pushname = `Val E2E ${Date.now() % 100000}`;
  await linkAccount(page.request, token, pushname);
  const fileName = `pelanggan-jakarta-selatan-${Date.now()}.csv`;

  await page.goto('/validator/create');
  await expect(page.getByRole('heading', { name: 'Tambah Akun Validator' })).toBeVisible();
  const submit = page.getByRole('button', { name: 'Simpan' });
  await chooseAccount(page, pushname);
  await expect(submit).toBeDisabled();
  await page.getByLabel('File (.csv / .json)').setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from('number,name\n6281234567890,Ani\nbukan-nomor,Budi\n') });
  await page.locator('input[name="interval_min"]').fill('0');
  await page.locator('input[name="interval_max"]').fill('0');
  await submit.click();

  await expect(page).toHaveURL(/\/validator\/list/);
  const link = page.getByTestId('target-file').filter({ hasText: fileName.slice(-20) });
  await expect(link).toHaveText(fileName.slice(-20));
  await expect(link).toHaveAttribute('href', /^\/uploads\/validators\/.+\.csv$/);
  await expect(link).toHaveAttribute('target', '_blank');
  // The link opens the file for the signed-in staff (the browser sends the session cookie), and for nobody else.
  const href = (await link.getAttribute('href'))!;
  expect((await page.request.get(href)).ok()).toBeTruthy();
  expect((await (await page.request.get(href)).text())).toContain('6281234567890,Ani');
  const anonymous = await page.context().browser()!.newContext();
  expect((await anonymous.request.get(new URL(href, page.url()).toString())).status()).toBe(404);
  await anonymous.close();
  const row = page.locator('tr', { has: link });
  await row.getByRole('button', { name: 'Start' }).click();
  await expect(row.getByTestId('progress')).toHaveText('100.00%', { timeout: 20_000 });
  await expect(row.getByTestId('count-fail')).not.toHaveText('0');
});

test("Start on a disconnected account shows the 'Forbidden' dialog and leads to reconnecting it", async ({ page }) => {
  const { token } = await signInFast(page, DEMO.staff);
  const account = await linkAccount(page.request, token, `Putus E2E ${Date.now() % 100000}`);
  const created = await page.request.post('/api/admin/generator/create', {
    headers: { Authorization: `Bearer ${token}` },
    data: { start_number: '6281999000000', end_number: '6281999000009', whatsapp_id: account.id, interval_min: 1, interval_max: 2 },
  });
  expect(created.ok()).toBeTruthy();
  expect((await page.request.post('/api/sim/connection', { data: { deviceId: account.deviceId, state: 'disconnected' } })).ok()).toBeTruthy();
  await expect
    .poll(async () => ((await (await page.request.get(`/api/admin/whatsapp/${account.id}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { whatsapp: { state: string } }).whatsapp.state)
    .toBe('disconnected');

  await page.goto('/generator/list');
  const row = page.locator('tr', { hasText: '6281999000000 - 6281999000009' }).first();
  await row.getByRole('button', { name: 'Start' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('.ant-modal-confirm-title')).toHaveText('Forbidden');
  await expect(dialog.getByText('Sambungan terputus, silahkan sambungkan ulang!')).toBeVisible();
  await pressInDialog(page, 'OK');
  await expect(page).toHaveURL(new RegExp(`/whatsapp/create\\?r=${account.id}$`));
});

test('Start on a generator deleted in another tab says so and the list drops it', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.staff);
  const account = await linkAccount(page.request, token, `Hapus E2E ${Date.now() % 100000}`);
  const headers = { Authorization: `Bearer ${token}` };
  const created = await page.request.post('/api/admin/generator/create', {
    headers,
    data: { start_number: '6281999100000', end_number: '6281999100009', whatsapp_id: account.id, interval_min: 1, interval_max: 2 },
  });
  expect(created.ok()).toBeTruthy();
  const id = ((await created.json()) as { generator: { id: number } }).generator.id;

  await page.goto('/generator/list');
  const row = page.locator('tr', { hasText: '6281999100000 - 6281999100009' });
  await expect(row).toHaveCount(1);
  // The other tab deletes it; this one still shows it.
  expect((await page.request.delete(`/api/admin/generator/${id}`, { headers })).ok()).toBeTruthy();
  await row.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('Generator tidak ditemukan')).toBeVisible();
  await expect(row).toHaveCount(0);
});
