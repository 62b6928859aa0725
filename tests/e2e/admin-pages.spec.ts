import { expect, test, type Page } from '@playwright/test';
import { DEMO, pressInDialog, signInFast } from './helpers';

/** Lists, forms and deletes of the administration screens run through Refine's data provider. */

async function adminHeaders(page: Page): Promise<Record<string, string>> {
  const { token } = await signInFast(page, DEMO.admin);
  return { Authorization: `Bearer ${token}` };
}

test('proxy: add by hand (a refused value shows the server message, also under its field), edit the status, then delete', async ({ page }) => {
  const headers = await adminHeaders(page);
  const host = `10.77.${Date.now() % 250}.${Math.floor(Math.random() * 250)}`;
  await page.goto('/proxy/create');
  await expect(page.getByRole('heading', { name: 'Tambah Proxy' })).toBeVisible();
  await page.getByRole('button', { name: 'Simpan Proxy' }).click();
  await expect(page.getByText('Proxy wajib diisi.')).toBeVisible();
  await page.getByLabel('Proxy').fill('ftp://nope');
  await page.getByRole('button', { name: 'Simpan Proxy' }).click();
  await expect(page.getByTestId('form-error')).toContainText('Error: ');
  const msg = (await page.getByTestId('form-error').innerText()).replace(/^Error: /, '').trim();
  expect(msg.length).toBeGreaterThan(0);
  // The server's `errors.value` reaches the field through Refine's HttpError.
  await expect(page.getByLabel('Proxy')).toHaveAccessibleDescription(new RegExp(msg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await page.getByLabel('Proxy').fill(`${host}:3128`);
  await page.getByRole('button', { name: 'Simpan Proxy' }).click();
  await expect(page).toHaveURL(/\/proxy$/);

  // A new proxy lands on the last page; the list reads ?page.
  const listed = await page.request.get('/api/admin/proxy/list-per-page?page=1', { headers });
  const last = ((await listed.json()) as { meta: { totalPages: number } }).meta.totalPages;
  await page.goto(`/proxy?page=${last}`);
  let row = page.getByRole('row', { name: new RegExp(host.replace(/\./g, '\\.')) });
  await expect(row).toContainText('0 kali');
  await expect(row).toContainText('active');
  await row.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Proxy' })).toBeVisible();
  await expect(page.getByLabel('Proxy')).toHaveValue(`${host}:3128`);
  const active = page.getByRole('switch', { name: 'Aktif' });
  await expect(active).toBeChecked();
  await active.click();
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page).toHaveURL(/\/proxy(\?page=\d+)?$/);
  row = page.getByRole('row', { name: new RegExp(host.replace(/\./g, '\\.')) });
  await expect(row).toContainText('nonactive');

  // The row says 'Deleting...' while the server has not answered.
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/admin/proxy/*', async (route) => {
    if (route.request().method() === 'DELETE') await held;
    await route.continue();
  });
  await row.getByRole('button', { name: 'Delete' }).click();
  await pressInDialog(page, 'Hapus');
  await expect(row).toContainText('Deleting...');
  release();
  await expect(row).toHaveCount(0);
});

test('referral is for members only: admin and dev have no menu entry and are turned away; a member sees the link', async ({ page }) => {
  for (const role of ['admin', 'dev'] as const) {
    await signInFast(page, DEMO[role]);
    await page.goto('/profile');
    await expect(page.getByTestId('sidebar')).toBeVisible();
    await expect(page.getByTestId('sidebar').getByText('Pengguna Referal')).toHaveCount(0);
    await page.goto('/referral');
    await expect(page).toHaveURL(/\/not-authorized/);
  }
  await signInFast(page, DEMO.member);
  await page.goto('/referral');
  await expect(page.getByRole('heading', { name: 'Daftar Referal' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Total : Rp / })).toBeVisible();
  await expect(page.getByTestId('referral-link')).toHaveValue(/\/signup\?referral=/);
});

test('members: the visible Filter Status label, the status in ?status, and the member settings saved', async ({ page }) => {
  await adminHeaders(page);
  await page.goto('/member');
  await expect(page.getByText('Filter Status', { exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Filter Status' })).toBeVisible();
  await page.getByTitle('Semua').click();
  await page.getByTitle('Suspended').click();
  await expect(page).toHaveURL(/status=suspended/);
  await expect(page).toHaveURL(/page=1/);
  await page.goto('/member?s=member%40demo.test');
  const row = page.getByRole('row', { name: /member@demo\.test/ });
  await row.getByRole('link', { name: 'Pengaturan' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Member' })).toBeVisible();
  await expect(page.getByLabel('Interval Min (s)')).not.toHaveValue('');
  await page.getByLabel('Interval Min (s)').fill('9');
  await page.getByLabel('Interval Max (s)').fill('3');
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page.getByText('Interval minimal harus lebih kecil dari interval maksimal')).toBeVisible();
  await page.getByLabel('Interval Max (s)').fill('12');
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page).toHaveURL(/\/member\?s=/);
  await row.getByRole('link', { name: 'Pengaturan' }).click();
  await expect(page.getByLabel('Interval Min (s)')).toHaveValue('9');
  await expect(page.getByLabel('Interval Max (s)')).toHaveValue('12');
});

test('bonus/create offers members only: an ?id of a developer preselects nobody', async ({ page }) => {
  const dev = await signInFast(page, DEMO.dev);
  await adminHeaders(page);
  await page.goto(`/bonus/create?id=${dev.user.id}`);
  await expect(page.getByRole('heading', { name: 'Kirim Bonus' })).toBeVisible();
  await expect(page.getByTestId('bonus-member')).toContainText('Pilih member');
  await page.getByLabel('Member').click();
  await expect(page.getByText('(member@demo.test)')).toBeVisible();
  await expect(page.getByText(/dev@demo\.test|admin@demo\.test/)).toHaveCount(0);
});

test('the administration screens speak English when the stored language is en', async ({ page }) => {
  await adminHeaders(page);
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.goto('/proxy');
  await expect(page.getByRole('heading', { name: 'Proxies' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Used' })).toBeVisible();
  await page.goto('/level');
  await expect(page.getByRole('heading', { name: 'Levels' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add Level' })).toBeVisible();
  await page.goto('/member');
  await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
  await expect(page.getByPlaceholder('Search Member')).toBeVisible();
  await page.goto('/withdraw/requested');
  await expect(page.getByRole('heading', { name: 'Withdrawal Requests' })).toBeVisible();
});

test('an edit screen for a record that does not exist says so at once, without asking again', async ({ page }) => {
  await signInFast(page, DEMO.admin);
  const reads: string[] = [];
  page.on('response', (res) => {
    if (/\/api\/admin\/(proxy|level)\/99999$/.test(res.url())) reads.push(`${res.status()} ${res.url()}`);
  });
  // Before, the 404 was asked three more times (about 7 s) before the screen said anything.
  await page.goto('/proxy/edit?id=99999');
  await expect(page.getByText('Error: Proxy tidak ditemukan')).toBeVisible();
  expect(reads).toHaveLength(1);
  // Refine's own notice of the failed read speaks the screen's language too.
  await expect(page.getByText('Terjadi kesalahan (kode status: 404)')).toBeVisible();
  await page.goto('/level/edit?id=99999');
  await expect(page.getByText('Error: Level tidak ditemukan')).toBeVisible();
  await page.waitForTimeout(1500);
  expect(reads).toHaveLength(2);
});
