import fs from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';
import { DEMO, pressInDialog, signInFast } from './helpers';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/** A block of numbers nobody else in this run uses: 62877 + 7 random digits + the given digit. */
function numberBlock(): (i: number) => string {
  const block = String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0');
  return (i) => `62877${block}${i}`;
}

async function adminPage(page: Page) {
  const { token } = await signInFast(page, DEMO.admin);
  return { Authorization: `Bearer ${token}` };
}

async function downloadOf(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: (download as Download).suggestedFilename(), text: fs.readFileSync((await download.path())!, 'utf8') };
}

const confirm = pressInDialog;

test('upload a CSV with duplicates: counts, the first 5 skipped rows and the skipped-list downloads', async ({ page }) => {
  const headers = await adminPage(page);
  const existing = ((await (await page.request.get('/api/admin/phonenumber/list-per-page?page=1', { headers })).json()) as { data: Array<{ number: string }> }).data;
  const n = numberBlock();
  const csv = [
    'number;name',
    `0${n(1).slice(2)};Baru Satu`,
    `${n(2)};Baru Dua`,
    `+${n(3)};Baru Tiga`,
    `${n(1)};Ulang`,
    `${n(1)};Ulang Lagi`,
    ...existing.slice(0, 3).map((e) => `${e.number};Sudah Ada`),
    '12345;Pendek',
    'abc;Huruf',
  ].join('\r\n');
  await page.goto('/phonenumber/create');
  // A refused manual save first: its message (top and under the field) goes once the upload starts.
  const refused = `Nomor ${existing[0]!.number} sudah ada di daftar.`;
  await page.getByLabel('Nomor Telepon').fill(existing[0]!.number);
  await page.getByLabel('Nama', { exact: true }).fill('Sudah Ada');
  await page.getByRole('button', { name: 'Simpan Nomor' }).click();
  await expect(page.getByText(refused)).toHaveCount(2);
  await page.locator('input[type=file]').setInputFiles({ name: 'numbers.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}\r\n`) });
  await page.getByRole('button', { name: 'Upload File' }).click();
  await expect(page.getByText('Total 3 nomor, berhasil didaftarkan.')).toBeVisible();
  await expect(page.getByText(refused)).toHaveCount(0);
  await expect(page.getByText('Daftar nomor yang dilewatkan')).toBeVisible();
  const skippedRows = page.getByTestId('import-result').locator('tr.ant-table-row');
  await expect(skippedRows).toHaveCount(5);
  await expect(skippedRows.first()).toContainText(n(1));
  await expect(skippedRows.first()).toContainText('berulang di dalam file');
  await expect(skippedRows.nth(2)).toContainText('sudah ada di daftar');
  await expect(page.getByText('...total 7 nomor. Download file untuk selengkapnya.')).toBeVisible();

  const csvFile = await downloadOf(page, () => page.getByRole('button', { name: 'Download CSV' }).click());
  expect(csvFile.name).toBe('phone_numbers_skipped.csv');
  const lines = csvFile.text.trim().split(/\r?\n/);
  expect(lines[0]).toBe('number,name,status,reason');
  expect(lines).toHaveLength(8);
  expect(lines.at(-1)).toBe('abc,Huruf,,nomor tidak valid');
  const jsonFile = await downloadOf(page, () => page.getByRole('button', { name: 'Download JSON' }).click());
  expect(jsonFile.name).toBe('phone_numbers_skipped.json');
  expect((JSON.parse(jsonFile.text) as unknown[]).length).toBe(7);
});

test('exports: phone numbers, proxies and templates download with the right names and columns', async ({ page }) => {
  await adminPage(page);
  await page.goto('/phonenumber');
  await expect(page.locator('tr.ant-table-row').first()).toBeVisible();
  const pnCsv = await downloadOf(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
  expect(pnCsv.name).toBe('phone_numbers.csv');
  expect(pnCsv.text.split('\r\n')[0]).toBe('number,name,status');
  expect(pnCsv.text.trim().split('\r\n').length).toBeGreaterThan(60);
  const pnJson = await downloadOf(page, () => page.getByRole('button', { name: 'Export JSON' }).click());
  expect(pnJson.name).toBe('phone_numbers.json');
  expect(Object.keys((JSON.parse(pnJson.text) as Array<Record<string, unknown>>)[0]!)).toEqual(['number', 'name', 'status']);

  await page.goto('/proxy');
  await expect(page.getByText('10.10.0.3:8080')).toBeVisible();
  await expect(page.getByText('socks5://demo:****@10.10.0.2:1080')).toBeVisible();
  const pxCsv = await downloadOf(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
  expect(pxCsv.name).toBe('proxies.csv');
  expect(pxCsv.text.split('\r\n')[0]).toBe('value,status');
  const pxJson = await downloadOf(page, () => page.getByRole('button', { name: 'Export JSON' }).click());
  expect(pxJson.name).toBe('proxies.json');
  expect(Object.keys((JSON.parse(pxJson.text) as Array<Record<string, unknown>>)[0]!)).toEqual(['value', 'status']);

  await page.goto('/message');
  await expect(page.locator('tr.ant-table-row').first()).toBeVisible();
  const msgJson = await downloadOf(page, () => page.getByRole('button', { name: 'Export JSON' }).click());
  expect(msgJson.name).toBe('messages.json');
  expect((JSON.parse(msgJson.text) as Array<Record<string, unknown>>)[0]).toMatchObject({ text: expect.any(String), text_wa: expect.any(String), button: expect.any(Array) });
});

test('create a template with bold text, an image and a URL button and see it in the list', async ({ page }) => {
  await adminPage(page);
  const word = `Uji${Date.now().toString(36)}`;
  await page.goto('/message/create');
  const editor = page.locator('.ql-editor');
  await editor.click();
  // The editor loads when the caption is first used; its look-alike hands it the focus.
  await expect(editor).toHaveAttribute('contenteditable', 'true');
  await expect(editor).toBeFocused();
  await page.keyboard.type(`Halo ${word} `);
  await page.keyboard.press('Control+b');
  await page.keyboard.type('Pelanggan');
  await page.locator('input[type=file]').first().setInputFiles({ name: 'promo.png', mimeType: 'image/png', buffer: PNG });
  const row = page.getByTestId('button-row-0');
  await row.locator('.ant-select').click();
  await page.locator('.ant-select-item-option', { hasText: 'Tombol URL' }).click();
  await row.getByPlaceholder('Judul').fill('Kunjungi');
  await row.getByPlaceholder('URL / nomor / balasan').fill('https://toko.demo.test/e2e');
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page).toHaveURL(/\/message$/);
  const created = page.locator('tr.ant-table-row', { hasText: word });
  await expect(created).toBeVisible();
  await expect(created.locator('strong')).toHaveText('Pelanggan');
  await expect(created.locator('img')).toHaveAttribute('src', /^\/uploads\/.+\.png$/);
  await expect(created.getByRole('link', { name: 'Kunjungi (Tombol URL)' })).toHaveAttribute('href', 'https://toko.demo.test/e2e');
  await expect(created).toContainText('0 kali');
});

test("edit a phone number's status", async ({ page }) => {
  const headers = await adminPage(page);
  const number = numberBlock()(5);
  const saved = await page.request.post('/api/admin/phonenumber/save', { headers, data: { number, name: 'Status Uji' } });
  expect(saved.status()).toBe(201);
  const id = ((await saved.json()) as { phoneNumber: { id: number } }).phoneNumber.id;
  await page.goto(`/phonenumber/edit?id=${id}`);
  const active = page.getByRole('checkbox', { name: 'Aktif' });
  await expect(active).toBeChecked();
  await active.uncheck();
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page).toHaveURL(/\/phonenumber$/);
  await page.getByPlaceholder('Cari nomor atau nama').fill(number);
  const row = page.locator('tr.ant-table-row', { hasText: number });
  await expect(row).toBeVisible();
  await expect(row.locator('.ant-tag')).toHaveText('nonactive');
});

test("delete shows 'Deleting...' until the server confirms, then the row is gone", async ({ page }) => {
  const headers = await adminPage(page);
  const number = numberBlock()(7);
  expect((await page.request.post('/api/admin/phonenumber/save', { headers, data: { number, name: 'Hapus Uji' } })).status()).toBe(201);
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/admin/phonenumber/*', async (route) => {
    if (route.request().method() === 'DELETE') await held;
    await route.continue();
  });
  await page.goto(`/phonenumber?search=${number}`);
  const row = page.locator('tr.ant-table-row', { hasText: number });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Delete' }).click();
  await confirm(page, 'Hapus');
  await expect(row).toContainText('Deleting...');
  release();
  await expect(row).toHaveCount(0);
  const after = await page.request.get(`/api/admin/phonenumber/list-per-page?search=${number}`, { headers });
  expect(((await after.json()) as { meta: { total: number } }).meta.total).toBe(0);
});

test('live updates on client-admin change the row in place and highlight it for 1 second', async ({ browser }) => {
  // The real app in this process, so the test can emit through its realtime hub.
  const { startLiveServer } = await import('./contacts-live');
  const live = await startLiveServer();
  try {
    const context = await browser.newContext();
    await context.addCookies([
      { name: 'authToken', value: live.token, domain: 'localhost', path: '/' },
      { name: 'user', value: encodeURIComponent(JSON.stringify(live.user)), domain: 'localhost', path: '/' },
    ]);
    const page = await context.newPage();
    await page.goto(`${live.baseUrl}/phonenumber`);
    const row = page.locator('tr.ant-table-row', { hasText: live.number });
    await expect(row).toBeVisible();
    await expect.poll(() => live.adminConnected()).toBe(true);

    live.emit('count_success', { receiver: { id: live.id, count_success: 5, last_sent: '2024-06-01T03:04:00.000Z', in_use: 0 } });
    await expect(row.locator('td').nth(2)).toHaveText('5');
    await expect(row).toHaveClass(/row-flash/);
    await expect(row).not.toHaveClass(/row-flash/, { timeout: 2500 });
    await expect(row.locator('td').nth(4)).not.toHaveText('-');

    live.emit('count_fail', { receiver: { id: live.id, count_fail: 2 } });
    await expect(row.locator('td').nth(3)).toHaveText('2');
    await expect(row).toHaveClass(/row-flash/);

    live.emit('in_use', { receiver: { id: live.id, in_use: 1 } });
    await expect(row).toContainText('(In Use)');
    live.emit('count_success', { receiver: { id: 999_999, count_success: 9 } });
    await expect(row.locator('td').nth(2)).toHaveText('5');
    await context.close();
  } finally {
    await live.close();
  }
});
