import { expect, test, type Page } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

/** A number nobody else in this run uses: 62878 + 7 random digits + the given digit. */
function freshNumber(i: number): string {
  return `62878${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}${i}`;
}

async function adminPage(page: Page) {
  const { token } = await signInFast(page, DEMO.admin);
  return { Authorization: `Bearer ${token}` };
}

test('from the phone-number list to the opt-out list: add a number by hand, see it listed and nonactive in the phone-number list', async ({ page }) => {
  const headers = await adminPage(page);
  const number = freshNumber(1);
  expect((await page.request.post('/api/admin/phonenumber/save', { headers, data: { number, name: 'Minta Berhenti' } })).status()).toBe(201);

  await page.goto('/phonenumber');
  await expect(page.getByRole('heading', { name: 'Daftar Phone Number' })).toBeVisible();
  await page.getByRole('button', { name: 'Nomor Berhenti' }).click();
  await expect(page).toHaveURL(/\/phonenumber\/optout$/);
  await expect(page.getByRole('heading', { name: 'Daftar Nomor Berhenti' })).toBeVisible();
  await expect(page).toHaveTitle('Daftar Nomor Berhenti | Blast Console');
  for (const column of ['Nomor Telepon', 'Alasan', 'Akun WhatsApp', 'Tanggal']) await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
  // The demo's own opt-out (a STOP reply) is listed with its reason as stored.
  await expect(page.getByRole('cell', { name: 'Balasan STOP' }).first()).toBeVisible();
  // No way to remove an opt-out.
  await expect(page.getByRole('button', { name: /Delete|Hapus/ })).toHaveCount(0);

  // A number that is not a number is refused with the phone-number forms' message.
  await page.getByRole('button', { name: 'Tambah Nomor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Tambah Nomor Berhenti' });
  await expect(dialog).toBeVisible();
  const field = dialog.getByLabel('Nomor Telepon');
  await field.fill('0812');
  await dialog.getByRole('button', { name: 'Tambahkan' }).click();
  await expect(dialog.getByText('Nomor telepon tidak valid untuk negaranya (periksa kode negara dan jumlah digit).')).toBeVisible();

  // Written in the local form, stored in the international one.
  await field.fill(`0${number.slice(2)}`);
  await dialog.getByRole('button', { name: 'Tambahkan' }).click();
  await expect(page.getByText(`Nomor ${number} ditambahkan ke daftar berhenti.`)).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.locator('tr.ant-table-row', { hasText: number });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Ditambahkan manual' })).toBeVisible();
  await expect(row.getByRole('cell', { name: '-', exact: true })).toBeVisible();
  // Newest first.
  await expect(page.locator('tr.ant-table-row').first()).toContainText(number);

  // Adding it again says so under the field and changes nothing.
  await page.getByRole('button', { name: 'Tambah Nomor' }).click();
  await dialog.getByLabel('Nomor Telepon').fill(number);
  await dialog.getByRole('button', { name: 'Tambahkan' }).click();
  await expect(dialog.getByText(`Nomor ${number} sudah ada di daftar berhenti (Ditambahkan manual).`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Batal' }).click();
  await expect(dialog).toBeHidden();

  // Search by number, in the local form.
  await page.getByRole('searchbox', { name: 'Cari nomor' }).fill(`0${number.slice(2)}`);
  await page.getByRole('button', { name: 'Cari' }).click();
  await expect(page).toHaveURL(new RegExp(`search=0${number.slice(2)}`));
  await expect(page.locator('tr.ant-table-row')).toHaveCount(1);
  await expect(page.locator('tr.ant-table-row')).toContainText(number);

  // Back in the phone-number list the row is nonactive, marked as opted out.
  await page.getByTestId('sidebar').getByRole('link', { name: 'Daftar Phone Number' }).click();
  await expect(page).toHaveURL(/\/phonenumber$/);
  await page.getByPlaceholder('Cari nomor atau nama').fill(number);
  const phoneRow = page.locator('tr.ant-table-row', { hasText: number });
  await expect(phoneRow).toBeVisible();
  await expect(phoneRow.locator('.ant-tag')).toHaveText('berhenti berlangganan: Ditambahkan manual');
});

test('members and staff cannot open the opt-out list', async ({ page }) => {
  for (const who of [DEMO.member, DEMO.staff]) {
    await page.context().clearCookies();
    await signInFast(page, who);
    await page.goto('/phonenumber/optout');
    await expect(page).toHaveURL(/\/not-authorized$/);
  }
});

test('on a 390 px phone the opt-out list and its dialog fit the screen; English labels', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await signInFast(page, DEMO.admin);
  await page.goto('/phonenumber');
  const open = page.getByRole('button', { name: 'Opted-out numbers' });
  await expect(open).toBeInViewport();
  await open.click();
  await expect(page.getByRole('heading', { name: 'Opted-out numbers' })).toBeVisible();
  const firstRow = page.locator('tr.ant-table-row').first();
  await expect(firstRow).toBeVisible();
  // The page itself does not scroll sideways; a wide table scrolls inside its own box.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const table = await page.locator('.ant-table').boundingBox();
  expect(table!.x).toBeGreaterThanOrEqual(0);
  expect(table!.x + table!.width).toBeLessThanOrEqual(390);
  // The number column is on screen without scrolling.
  await expect(firstRow.getByRole('cell').first()).toBeInViewport({ ratio: 1 });
  const search = await page.getByRole('searchbox', { name: 'Search number' }).boundingBox();
  expect(search!.width).toBeGreaterThan(200);
  expect(search!.x + search!.width).toBeLessThanOrEqual(390);

  await page.getByRole('button', { name: 'Add number' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an opted-out number' });
  await expect(dialog.getByLabel('Phone number')).toBeInViewport({ ratio: 1 });
  await expect(dialog.getByRole('button', { name: 'Add', exact: true })).toBeInViewport({ ratio: 1 });
  await dialog.getByLabel('Phone number').fill('0812');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog.getByText('The phone number is not valid for its country (check the country code and the number of digits).')).toBeVisible();
  // The stored reason reads in the screen's language.
  const local = `0857${String(Date.now()).slice(-8)}`;
  await dialog.getByLabel('Phone number').fill(local);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();
  const added = page.locator('tr.ant-table-row', { hasText: `62${local.slice(1)}` });
  await expect(added.getByRole('cell', { name: 'Added by hand' })).toBeVisible();
});
