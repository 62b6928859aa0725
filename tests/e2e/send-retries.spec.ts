import { expect, test } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

test("'Maks. Percobaan' in the settings form is checked and saved, and the phone list filters 'Gagal permanen', in Indonesian and English", async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const headers = { Authorization: `Bearer ${token}` };
  const restore = async () => {
    const now = ((await (await page.request.get('/api/admin/setting/get', { headers })).json()) as { setting: Record<string, unknown> }).setting;
    await page.request.put('/api/admin/setting/update', { headers, data: { ...now, max_attempts: 3 } });
  };
  try {
    await page.goto('/settings');
    const field = page.getByRole('textbox', { name: 'Maks. Percobaan' }).or(page.getByRole('spinbutton', { name: 'Maks. Percobaan' }));
    await expect(field).toHaveValue('3');
    await field.fill('11');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await expect(page.getByText('Maks. Percobaan paling besar 10.').first()).toBeVisible();
    await field.fill('0');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await expect(page.getByText('Maks. Percobaan harus bilangan bulat dari 1 sampai 10.').first()).toBeVisible();
    await field.fill('5');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await expect(page.getByText('Pengaturan berhasil disimpan.').first()).toBeVisible();
    const saved = ((await (await page.request.get('/api/admin/setting/get', { headers })).json()) as { setting: { max_attempts: number } }).setting;
    expect(saved.max_attempts).toBe(5);

    // The phone list's send-status filter: 'Gagal permanen' goes into the address and narrows the list.
    await page.goto('/phonenumber');
    await expect(page.getByRole('heading', { name: 'Daftar Phone Number' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Status Kirim' }).click({ force: true });
    await page.getByTitle('Gagal permanen').click();
    await expect(page).toHaveURL(/status=failed/);
    const api = (await (await page.request.get('/api/admin/phonenumber/list-per-page?page=1&status=failed', { headers })).json()) as { data: Array<{ number: string }> };
    if (api.data.length === 0) await expect(page.getByText('Kosong')).toBeVisible();
    else for (const r of api.data) await expect(page.locator('tr.ant-table-row', { hasText: r.number }).locator('.ant-tag', { hasText: 'Gagal permanen' })).toBeVisible();

    // In English the same screen says 'Send status' / 'Permanently failed', the filter kept.
    await page.getByRole('group', { name: 'Bahasa' }).getByRole('button', { name: 'English' }).click();
    await expect(page.getByRole('combobox', { name: 'Send status' })).toBeVisible();
    await expect(page.getByTitle('Permanently failed')).toBeVisible();
    await page.goto('/settings');
    await expect(page.getByText('Max. Attempts', { exact: true })).toBeVisible();
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Indonesia' }).click();
  } finally {
    await restore();
  }
});
