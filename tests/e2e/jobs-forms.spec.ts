import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

/** Links a connected WhatsApp account for the signed-in user through the console's calls and /sim. */
async function linkAccount(request: APIRequestContext, token: string, pushname: string): Promise<void> {
  const headers = { Authorization: `Bearer ${token}` };
  const deviceId = `id-${Date.now()}-${Math.floor(Math.random() * 10000)}`;
  expect((await request.post('/api/admin/whatsapp/new-client', { headers, data: { deviceId } })).ok()).toBeTruthy();
  const qr = (await (await request.get(`/api/admin/whatsapp/qr-new-client/${deviceId}`, { headers })).json()) as { qr: string };
  expect((await request.post('/api/sim/scan', { data: { qr: qr.qr, pushname } })).ok()).toBeTruthy();
  const linked = (await (await request.get(`/api/admin/whatsapp/listen-message-created/${deviceId}`, { headers })).json()) as { message: Record<string, unknown> };
  expect((await request.post('/api/admin/whatsapp/save', { headers, data: { ...linked.message, user_id: null } })).ok()).toBeTruthy();
}

const RANGE = 'Target nomor awal harus lebih kecil dari nomor akhir';
const INTERVAL = 'Interval minimal harus lebih kecil dari interval maksimal';

test('generator form errors clear once the field is corrected, server field errors included', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.staff);
  const pushname = `Form E2E ${Date.now() % 100000}`;
  await linkAccount(page.request, token, pushname);
  await page.goto('/generator/create');
  const start = page.getByLabel('Target Nomor Awal');
  const end = page.getByLabel('Target Nomor Akhir');
  await start.fill('6281300000009');
  await end.fill('6281300000000');
  await expect(page.getByText(RANGE)).toBeVisible();
  await end.fill('6281300000019');
  await expect(page.getByText(RANGE)).toHaveCount(0);

  await page.getByLabel('Interval Min').fill('5');
  await expect(page.getByText(INTERVAL)).toBeVisible();
  await page.getByLabel('Interval Min').fill('2');
  await expect(page.getByText(INTERVAL)).toHaveCount(0);

  // Without an account the server refuses under WhatsApp; choosing one clears it.
  await page.getByRole('button', { name: 'Simpan' }).click();
  const noAccount = page.getByText('Akun WhatsApp wajib dipilih');
  await expect(noAccount).toBeVisible();
  await page.getByRole('combobox', { name: 'WhatsApp' }).click();
  await page.getByTitle(new RegExp(pushname)).click();
  await expect(noAccount).toHaveCount(0);

  // A number the numbering plan refuses is refused under its field as it is typed, in the server's words.
  await end.fill('0812abc');
  const letters = page.getByText('Target Nomor Akhir: Nomor telepon hanya boleh berisi angka, spasi, titik, tanda minus atau + di depan.');
  await expect(letters).toBeVisible();
  await end.fill('6281300000019');
  await expect(letters).toHaveCount(0);
  await start.fill('12');
  const refusal = page.getByText(/^Target Nomor Awal: /);
  await expect(refusal).toBeVisible();
  // Simpan sends nothing while a field is refused.
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/admin/generator/create')) sent.push(r.url());
  });
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(refusal).toBeVisible();
  expect(sent).toEqual([]);
  await start.fill('6281300000000');
  await expect(refusal).toHaveCount(0);

  // A double click on Simpan creates one generator.
  await page.getByRole('button', { name: 'Simpan' }).dblclick();
  await expect(page).toHaveURL(/\/generator\/list/);
  expect(sent).toHaveLength(1);
  await expect(page.getByRole('row', { name: new RegExp(pushname) })).toHaveCount(1);
});

test('the validator file is an Upload: a wrong type is refused under the field and the error clears with a .csv', async ({ page }) => {
  await signInFast(page, DEMO.staff);
  await page.goto('/validator/create');
  await expect(page.getByRole('button', { name: 'Pilih File' })).toBeVisible();
  const file = page.getByLabel('File (.csv / .json)');
  await file.setInputFiles({ name: 'nomor.txt', mimeType: 'text/plain', buffer: Buffer.from('6281234567890\n') });
  await expect(page.getByText('File harus berformat .csv atau .json')).toBeVisible();
  await file.setInputFiles({ name: 'nomor.csv', mimeType: 'text/csv', buffer: Buffer.from('number\n6281234567890\n') });
  await expect(page.getByText('File harus berformat .csv atau .json')).toHaveCount(0);
  // One file at a time: the list shows only the last one picked.
  await expect(page.getByText('nomor.csv')).toBeVisible();
  await expect(page.getByText('nomor.txt')).toHaveCount(0);
});

test("the generator list keeps the spec's address: ?search and ?page drive the table and survive a reload", async ({ page }) => {
  const { token } = await signInFast(page, DEMO.staff);
  const pushname = `List E2E ${Date.now() % 100000}`;
  await linkAccount(page.request, token, pushname);
  const accounts = (await (await page.request.get('/api/admin/whatsapp/list', { headers: { Authorization: `Bearer ${token}` } })).json()) as { list: Array<{ id: number; pushname: string }> };
  const account = accounts.list.find((a) => a.pushname === pushname)!;
  // Eleven ranges that share a prefix no other test uses: two pages when searched.
  const prefix = `628139${String(Date.now() % 10000).padStart(4, '0')}`;
  for (let i = 0; i < 11; i += 1) {
    const start = `${prefix}${String(i).padStart(2, '0')}0`;
    const res = await page.request.post('/api/admin/generator/create', {
      headers: { Authorization: `Bearer ${token}` },
      data: { start_number: start, end_number: `${prefix}${String(i).padStart(2, '0')}9`, whatsapp_id: account.id, interval_min: 1, interval_max: 2 },
    });
    expect(res.ok()).toBeTruthy();
  }

  await page.goto('/generator/list');
  await page.getByRole('searchbox', { name: 'Cari' }).fill(prefix);
  await page.getByRole('searchbox', { name: 'Cari' }).press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]search=${prefix}`));
  await expect(page).toHaveURL(/[?&]page=1/);
  await expect(page.getByText('Page 1 of 2')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: prefix })).toHaveCount(10);

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: prefix })).toHaveCount(1);

  await page.reload();
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Cari' })).toHaveValue(prefix);
  await expect(page.getByRole('row').filter({ hasText: prefix })).toHaveCount(1);

  // The sidebar's entry opens the list without a search: the box follows the address.
  await page.getByRole('link', { name: 'Daftar Generator' }).click();
  await expect(page).not.toHaveURL(/[?&]search=/);
  await expect(page.getByRole('searchbox', { name: 'Cari' })).toHaveValue('');
});
