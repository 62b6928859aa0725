import { expect, test, type Page } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

/** 7 random digits, so numbers of this run do not meet earlier ones. */
const block = () => String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0');

async function addNumber(page: Page, number: string, name: string) {
  await page.goto('/phonenumber/create');
  await page.getByLabel('Nomor Telepon').fill(number);
  await page.getByLabel('Nama').fill(name);
  await page.getByRole('button', { name: 'Simpan Nomor' }).click();
}

test('the manual form reads a number without its zero, refuses one outside the plan, and the list filters by line type', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const headers = { Authorization: `Bearer ${token}` };
  const b = block();

  await page.goto('/phonenumber/create');
  await page.getByLabel('Nomor Telepon').fill('0804 1');
  await page.getByLabel('Nama').fill('Salah');
  await page.getByRole('button', { name: 'Simpan Nomor' }).click();
  await expect(page.getByText('Nomor telepon tidak valid untuk negaranya (periksa kode negara dan jumlah digit).')).toBeVisible();

  await addNumber(page, `813-${b.slice(0, 4)}-${b.slice(4)}1`, `Seluler ${b}`);
  await expect(page).toHaveURL(/\/phonenumber$/);
  await addNumber(page, `(021) ${b}`, `Kantor ${b}`);
  await expect(page).toHaveURL(/\/phonenumber$/);

  const saved = (await (await page.request.get(`/api/admin/phonenumber/list-per-page?search=${b}`, { headers })).json()) as { data: Array<{ number: string; line_type: string }> };
  expect(saved.data.map((r) => [r.number, r.line_type]).sort()).toEqual([
    [`6221${b}`, 'fixed_line'],
    [`62813${b}1`, 'mobile'],
  ]);

  await page.getByPlaceholder('Cari nomor atau nama').fill(b);
  await expect(page.getByRole('link', { name: `62813${b}1` })).toBeVisible();
  await expect(page.getByRole('link', { name: `6221${b}` })).toBeVisible();
  await page.getByRole('combobox', { name: 'Jenis Nomor' }).click({ force: true });
  await page.getByTitle('Telepon tetap').click();
  await expect(page).toHaveURL(/line_type=fixed_line/);
  await expect(page.getByRole('link', { name: `6221${b}` })).toBeVisible();
  await expect(page.getByRole('link', { name: `62813${b}1` })).toHaveCount(0);
});

test("'Kode Negara Default' in the settings form changes how numbers without a country code are read", async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const headers = { Authorization: `Bearer ${token}` };
  const restore = async () => {
    const now = ((await (await page.request.get('/api/admin/setting/get', { headers })).json()) as { setting: Record<string, unknown> }).setting;
    await page.request.put('/api/admin/setting/update', { headers, data: { ...now, default_country: 'ID' } });
  };
  try {
    await page.goto('/settings');
    const country = page.getByRole('combobox', { name: 'Kode Negara Default' });
    await expect(page.getByTitle('ID — Indonesia')).toBeVisible();
    await country.click({ force: true });
    await country.fill('Malaysia');
    await page.getByTitle('MY — Malaysia').click();
    await page.getByRole('button', { name: /Simpan/ }).click();
    await expect(page.getByText('Pengaturan berhasil disimpan.')).toBeVisible();

    const b = block();
    await addNumber(page, `012-${b}`, `Malaysia ${b}`);
    await expect(page).toHaveURL(/\/phonenumber$/);
    const saved = (await (await page.request.get(`/api/admin/phonenumber/list-per-page?search=${b}`, { headers })).json()) as { data: Array<{ number: string; line_type: string }> };
    expect(saved.data.map((r) => [r.number, r.line_type])).toEqual([[`6012${b}`, 'mobile']]);
  } finally {
    await restore();
  }
});
