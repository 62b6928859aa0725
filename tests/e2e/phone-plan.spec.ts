import { expect, test, type Page } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

/**
 * 7 random digits, so numbers of this run do not meet earlier ones. Never a leading 0: a search text
 * starting with 0 is read as a national number (0812… → 62812…), so it would not find the fragment.
 */
const block = () => String(1_000_000 + Math.floor(Math.random() * 9_000_000));

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

test("'Jenis Nomor' starts again from page 1 in ?page, and paging keeps the filter through a reload", async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const headers = { Authorization: `Bearer ${token}` };
  const mobile = (await (await page.request.get('/api/admin/phonenumber/list-per-page?page=1&line_type=mobile', { headers })).json()) as { meta: { totalPages: number } };
  expect(mobile.meta.totalPages).toBeGreaterThan(1);

  await page.goto('/phonenumber?page=2');
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
  await page.getByRole('combobox', { name: 'Jenis Nomor' }).click({ force: true });
  await page.getByTitle('Seluler').click();
  await expect(page).toHaveURL(/[?&]page=1(&|$)/);
  await expect(page).toHaveURL(/[?&]line_type=mobile(&|$)/);
  await expect(page.getByText(`Page 1 of ${mobile.meta.totalPages}`)).toBeVisible();

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expect(page).toHaveURL(/[?&]line_type=mobile(&|$)/);
  const second = (await (await page.request.get('/api/admin/phonenumber/list-per-page?page=2&line_type=mobile', { headers })).json()) as { data: Array<{ number: string }> };
  await expect(page.getByRole('link', { name: second.data[0]!.number, exact: true })).toBeVisible();

  await page.reload();
  await expect(page.getByText(`Page 2 of ${mobile.meta.totalPages}`)).toBeVisible();
  await expect(page.getByTitle('Seluler')).toBeVisible();
  await expect(page.getByRole('link', { name: second.data[0]!.number, exact: true })).toBeVisible();
});

test('a number the server refuses on edit shows its message under Nomor Telepon and the screen stays', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const headers = { Authorization: `Bearer ${token}` };
  const b = block();
  const save = async (number: string, name: string) => {
    const res = await page.request.post('/api/admin/phonenumber/save', { headers, data: { number, name } });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { phoneNumber: { id: number; number: string } }).phoneNumber;
  };
  const first = await save(`62813${b}1`, `Pertama ${b}`);
  const second = await save(`62813${b}2`, `Kedua ${b}`);

  await page.goto(`/phonenumber/edit?id=${second.id}`);
  const number = page.getByLabel('Nomor Telepon');
  await expect(number).toHaveValue(second.number);
  await number.fill(first.number);
  await page.getByRole('button', { name: 'Simpan' }).click();
  const message = `Nomor ${first.number} sudah ada di daftar.`;
  await expect(number).toHaveAccessibleDescription(message);
  await expect(page.getByTestId('form-error')).toHaveText(`Error: ${message}`);
  await expect(page).toHaveURL(new RegExp(`/phonenumber/edit\\?id=${second.id}$`));

  // Correcting the number saves and goes back.
  await number.fill(second.number);
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page).not.toHaveURL(/\/phonenumber\/edit/);
});

test("a refused colour list in the settings shows the locale's text under Warna Level", async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/settings');
  const colors = page.getByLabel('Warna Level');
  await expect(colors).toHaveValue(/#/);
  await colors.fill('merah, biru');
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(colors).toHaveAccessibleDescription(/Warna harus kode hex/);
  await expect(page.getByText('Pengaturan berhasil disimpan.')).toHaveCount(0);
});

test('a page past the last one (an old link) moves to the last page', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const headers = { Authorization: `Bearer ${token}` };
  const mobile = (await (await page.request.get('/api/admin/phonenumber/list-per-page?page=1&line_type=mobile', { headers })).json()) as { meta: { totalPages: number } };
  const last = mobile.meta.totalPages;
  await page.goto('/phonenumber?line_type=mobile&page=99999');
  await expect(page).toHaveURL(new RegExp(`[?&]page=${last}(&|$)`));
  await expect(page.getByText(`Page ${last} of ${last}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await expect(page.getByText('Kosong')).toHaveCount(0);
});
