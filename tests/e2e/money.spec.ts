import { expect, test, type Page } from '@playwright/test';
import { DEMO, pressInDialog, recordListShapes, signInFast } from './helpers';

const PASSWORD = 'rahasia123';

/** A fresh member of this run (registered through the API), so tests never depend on each other. */
async function newMember(page: Page, firstName: string): Promise<{ id: number; email: string; name: string }> {
  const tag = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const email = `${firstName.toLowerCase()}${tag}@money.test`;
  const lastName = `Uji${tag}`;
  const res = await page.request.post('/api/auth/register', {
    data: { firstName, lastName, email, password: PASSWORD, password2: PASSWORD, referral_code: '', agreeToTerms: true },
  });
  expect(res.status()).toBe(201);
  const body = (await res.json()) as { user: { id: number } };
  return { id: body.user.id, email, name: `${firstName} ${lastName}` };
}

/** The title of the open confirm dialog (success, error, info). */
const confirmTitle = (page: Page) => page.locator('.ant-modal-confirm-title');

/** Presses OK on the open confirm dialog, then waits for it to close. */
async function pressOk(page: Page) {
  await pressInDialog(page, 'OK');
  await expect(page.locator('.ant-modal-confirm')).toBeHidden();
}

/** Signs in as someone else in the same page (cookies replaced). */
async function as(page: Page, email: string, password?: string) {
  await page.context().clearCookies();
  return signInFast(page, email, password);
}

async function adminBonus(page: Page, userId: number, nominal: number) {
  const login = await page.request.post('/api/auth/login', { data: { email: DEMO.admin, password: 'demo12345' } });
  const { token } = (await login.json()) as { token: string };
  const res = await page.request.post('/api/admin/bonus/create', {
    headers: { Authorization: `Bearer ${token}` },
    data: { userId, nominal, reason: 'Modal awal uji' },
  });
  expect(res.status()).toBe(201);
}

test('admin sends a bonus from the member list; the member sees it on /bonus with the total', async ({ page }) => {
  const member = await newMember(page, 'Bonita');
  await as(page, DEMO.admin);
  await page.goto('/member');
  await expect(page.getByRole('heading', { name: 'Daftar Member' })).toBeVisible();
  await page.getByPlaceholder('Cari Member').fill(member.email);
  await page.getByPlaceholder('Cari Member').press('Enter');
  await expect(page).toHaveURL(/s=/);
  const row = page.getByRole('row', { name: new RegExp(member.email) });
  await expect(row).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(2);
  await row.getByRole('link', { name: 'Beri Bonus' }).click();

  await expect(page).toHaveURL(new RegExp(`/bonus/create\\?id=${member.id}$`));
  await expect(page.getByTestId('bonus-member')).toContainText(member.email);
  // A negative amount is refused with its reason and kept as typed, not turned into Rp 1.
  await page.getByLabel('Nominal').fill('-1000');
  await page.getByLabel('Keterangan').fill('Bonus pertama');
  await page.getByRole('button', { name: 'Kirim' }).click();
  await expect(page.getByText('Nominal harus lebih dari 0.')).toBeVisible();
  await expect(page.getByLabel('Nominal')).toHaveValue('-1000');
  await page.getByLabel('Nominal').fill('12345');
  await expect(page.getByText('Nominal harus lebih dari 0.')).toHaveCount(0);
  await page.getByLabel('Keterangan').fill('Bonus pertama');
  // A double click sends one bonus (the member's total below is 12.345, not twice that).
  await page.getByRole('button', { name: 'Kirim' }).dblclick();
  await expect(confirmTitle(page)).toHaveText('Berhasil');
  await expect(page.getByText('Bonus berhasil dikirim.')).toBeVisible();
  await pressOk(page);
  await expect(page).toHaveURL(/\/member\?/);

  await as(page, member.email, PASSWORD);
  await page.goto('/bonus');
  await expect(page.getByRole('heading', { name: 'Bonus : Rp 12.345' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Diterima Pada' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Action' })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /Rp 12\.345.*Bonus pertama/ })).toBeVisible();
});

test('a member without a bank account is sent to the profile, fills it, requests again; admin accepts it', async ({ page }) => {
  const member = await newMember(page, 'Wati');
  await adminBonus(page, member.id, 50000);

  await as(page, member.email, PASSWORD);
  await page.goto('/withdraw');
  await expect(page.getByTestId('withdraw-balance')).toContainText('Rp 50.000');
  await expect(page.getByLabel('Nominal (Rp.)')).toHaveValue('10000');

  await page.getByLabel('Nominal (Rp.)').fill('5000');
  await page.getByRole('button', { name: 'Kirim Permintaan' }).click();
  await expect(page.getByText('Minimal permintaan penarikan adalah Rp 10.000')).toBeVisible();
  await pressOk(page);

  await page.getByLabel('Nominal (Rp.)').fill('20000');
  await page.getByRole('button', { name: 'Kirim Permintaan' }).click();
  await expect(page.getByText(/Rekening bank belum diisi/)).toBeVisible();
  await pressOk(page);
  await expect(page).toHaveURL(/\/profile\?edit=1$/);

  const dialog = page.getByRole('dialog', { name: 'Edit Profil' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Bank' })).toBeVisible();
  await expect(dialog.locator('.ant-select-selection-item')).toHaveText('BCA');
  await dialog.getByLabel('Nomor Rekening').fill('0123456789');
  await dialog.getByLabel('Nama Rekening').fill(member.name);
  await expect(dialog.getByPlaceholder('Ganti Password ?')).toHaveValue('');
  await dialog.getByRole('button', { name: 'Simpan' }).click();
  await expect(page.getByTestId('profile-info')).toContainText('0123456789');
  await expect(page.getByTestId('profile-info')).toContainText('BCA');

  await page.goto('/withdraw');
  // A decimal amount is refused as typed, not rounded into another amount.
  await page.getByLabel('Nominal (Rp.)').fill('20000.5');
  await page.getByRole('button', { name: 'Kirim Permintaan' }).click();
  await expect(page.getByText('Nominal harus bilangan bulat.')).toBeVisible();
  await expect(page.getByLabel('Nominal (Rp.)')).toHaveValue('20000.5');
  await page.getByLabel('Nominal (Rp.)').fill('20000');
  // A double click asks for the money once.
  await page.getByRole('button', { name: 'Kirim Permintaan' }).dblclick();
  await expect(page.getByText('Permintaan withdraw berhasil dikirim.')).toBeVisible();
  await pressOk(page);
  await expect(page.getByTestId('withdraw-history').getByRole('row', { name: /Rp 20\.000.*Diajukan/ })).toHaveCount(1);
  await expect(page.getByTestId('withdraw-balance')).toContainText('Rp 30.000');
  await expect(page.getByTestId('withdraw-requested')).toContainText('Rp 20.000');

  await as(page, DEMO.admin);
  await page.goto('/withdraw/requested');
  const row = page.getByRole('row', { name: new RegExp(member.name) });
  await expect(row).toContainText('Diajukan');
  await row.getByRole('button', { name: member.name }).click();
  await expect(page.getByTestId('bank-details')).toContainText('0123456789');
  await pressOk(page);
  await row.getByRole('button', { name: 'Terima' }).click();
  await expect(confirmTitle(page)).toHaveText('Permintaan withdraw Diterima');
  await pressOk(page);
  await expect(row).toContainText('Diterima');
  await expect(row.getByRole('button', { name: 'Batalkan' })).toBeVisible();
  // The audit log names the amount, the account and the decision in words.
  await page.goto('/audit');
  const decision = page.getByRole('row').filter({ hasText: 'Keputusan withdraw' }).filter({ hasText: member.name }).first();
  await expect(decision).toContainText('nominal: Rp 20.000');
  await expect(decision).toContainText(`BCA 0123456789 (${member.name})`);
  await expect(decision).toContainText('Diajukan → Diterima');

  await as(page, member.email, PASSWORD);
  await page.goto('/withdraw');
  await expect(page.getByTestId('withdraw-history').getByRole('row', { name: /Rp 20\.000.*Diterima/ })).toBeVisible();
  await expect(page.getByTestId('withdraw-accepted')).toContainText('Rp 20.000');
  await expect(page.getByTestId('withdraw-balance')).toContainText('Rp 30.000');
});

test('a withdrawal whose answer was lost is made once when the member sends it again', async ({ page }) => {
  const member = await newMember(page, 'Lusi');
  await adminBonus(page, member.id, 50000);
  const { token } = await as(page, member.email, PASSWORD);
  const bank = await page.request.put(`/api/admin/users/${member.id}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { account_bank: 'BCA', account_number: '987654321', account_name: member.name },
  });
  expect(bank.status()).toBe(200);
  await page.goto('/withdraw');
  await expect(page.getByTestId('withdraw-balance')).toContainText('Rp 50.000');

  // The first request reaches the server, but its answer never reaches the browser.
  let lost = 0;
  await page.route('**/api/admin/withdraw/request', async (route) => {
    if (lost++ > 0) return route.continue();
    await route.fetch();
    await route.abort('connectionreset');
  });
  // Typed as the console writes amounts: '15.000' is fifteen thousand.
  await page.getByLabel('Nominal (Rp.)').fill('15.000');
  await page.getByRole('button', { name: 'Kirim Permintaan' }).click();
  // The failure is a notification (the spec names no dialog for it): nothing to dismiss.
  await expect(page.getByText('Network error. Please try again.')).toBeVisible();

  // Sent again as it stands: the server answers with the request it already made.
  await page.getByRole('button', { name: 'Kirim Permintaan' }).click();
  await expect(page.getByText('Permintaan withdraw berhasil dikirim.')).toBeVisible();
  await pressOk(page);
  expect(lost).toBe(2);
  await expect(page.getByTestId('withdraw-history').getByRole('row', { name: /Rp 15\.000.*Diajukan/ })).toHaveCount(1);
  await expect(page.getByTestId('withdraw-balance')).toContainText('Rp 35.000');

  // A new request for the same amount, after that answer, is a second withdrawal.
  await page.getByLabel('Nominal (Rp.)').fill('15000');
  await page.getByRole('button', { name: 'Kirim Permintaan' }).click();
  await expect(page.getByText('Permintaan withdraw berhasil dikirim.')).toBeVisible();
  await pressOk(page);
  await expect(page.getByTestId('withdraw-history').getByRole('row', { name: /Rp 15\.000.*Diajukan/ })).toHaveCount(2);
  await expect(page.getByTestId('withdraw-balance')).toContainText('Rp 20.000');
});

test("the bonus list and the withdraw requests draw an admin's columns from the first render", async ({ page }) => {
  const shapes = await recordListShapes(page);
  await signInFast(page, DEMO.admin);
  await page.goto('/bonus');
  await expect(page.getByRole('columnheader', { name: 'Member' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Action' })).toBeVisible();
  expect(await shapes()).toHaveLength(1);
  await page.goto('/withdraw/requested');
  await expect(page.getByRole('columnheader', { name: 'Action' })).toBeVisible();
  expect(await shapes()).toHaveLength(1);
});

test('staff see the withdraw requests read-only', async ({ page }) => {
  await as(page, DEMO.staff);
  await page.goto('/withdraw/requested');
  await expect(page.getByRole('heading', { name: 'Permintaan Withdraw' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Action' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Terima' })).toHaveCount(0);
});

test('settings saved and the dashboard banner shows the new info', async ({ page }) => {
  const info = `Pengumuman uji ${Date.now()}`;
  await as(page, DEMO.admin);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Form Pengaturan' })).toBeVisible();
  await expect(page.getByLabel('Daftar Bank')).toHaveValue(/BCA/);
  await page.getByLabel('Info').fill('');
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page.getByText('Info wajib diisi.')).toBeVisible();
  await page.getByLabel('Info').fill(info);
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page.getByText('Pengaturan berhasil disimpan.')).toBeVisible();

  await as(page, DEMO.member);
  await page.goto('/');
  // The banner scrolls, so its text may be drawn twice; the first copy is the one read.
  await expect(page.getByTestId('member-dashboard').getByText(info, { exact: true }).first()).toBeVisible();
});

test('a password change keeps this session signed in with the fresh token and ends the old one', async ({ page }) => {
  const member = await newMember(page, 'Sandi');
  const { token: oldToken } = await as(page, member.email, PASSWORD);
  await page.goto('/profile?edit=true');
  const dialog = page.getByRole('dialog', { name: 'Edit Profil' });
  await dialog.getByPlaceholder('Ganti Password ?').fill('sandibaru123');
  await dialog.getByRole('button', { name: 'Simpan' }).click();
  // The page reloads once the fresh token is stored, and says so.
  await expect(page.getByText('Profil berhasil diperbarui.')).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId('profile-card')).toContainText(member.email);

  const cookie = (await page.context().cookies()).find((c) => c.name === 'authToken');
  expect(cookie?.value).toBeTruthy();
  expect(cookie?.value).not.toBe(oldToken);
  const oldCheck = await page.request.post('/api/auth/validate', { data: { token: oldToken } });
  expect(await oldCheck.json()).toEqual({ isvalid: false });
  await page.goto('/bonus');
  await expect(page.getByRole('heading', { name: /Bonus : / })).toBeVisible();
});

test('admin adds, edits and deletes a level', async ({ page }) => {
  const name = `Uji${Date.now()}`;
  await as(page, DEMO.admin);
  await page.goto('/level');
  await page.getByRole('link', { name: 'Tambah Level' }).click();
  await expect(page.getByRole('heading', { name: 'Tambah Level' })).toBeVisible();
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page.getByText('Name wajib diisi.')).toBeVisible();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Harga per Blast (Rp.)').fill('120');
  await page.getByLabel('Syarat Minimal Blast').fill(String(100000 + (Date.now() % 100000)));
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page).toHaveURL(/\/level$/);

  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Rp 120');
  await row.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Level' })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue(name);
  // A negative price is refused as typed; it is not saved as Rp 0 (a level that pays nothing).
  await page.getByLabel('Harga per Blast (Rp.)').fill('-5');
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page.getByText('Harga per Blast harus 0 atau lebih.')).toBeVisible();
  await expect(page.getByLabel('Harga per Blast (Rp.)')).toHaveValue('-5');
  await expect(page).toHaveURL(/\/level\/edit/);
  await page.getByLabel('Harga per Blast (Rp.)').fill('130');
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(row).toContainText('Rp 130');

  await row.getByRole('button', { name: 'Delete' }).click();
  await pressInDialog(page, 'Hapus');
  await expect(row).toHaveCount(0);
});
