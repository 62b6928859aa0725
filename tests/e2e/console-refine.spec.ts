import { expect, test } from '@playwright/test';
import { DEMO, pressInDialog, signInFast } from './helpers';

/** The console on Refine's antd screens: one address sync, one way of feedback, usable on a phone. */

test('the audit list keeps its page in the address: ?page= survives a reload', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  // Eleven audited changes at least, so the list has a second page.
  const auth = { Authorization: `Bearer ${token}` };
  const created = await page.request.post('/api/admin/level/create', { headers: auth, data: { name: `Page ${Date.now()}`, blast_fee: 10, requirement_blast: 700_000 + (Date.now() % 90_000) } });
  const level = ((await created.json()) as { level: { id: number; name: string; requirement_blast: number } }).level;
  for (let fee = 11; fee <= 21; fee++) {
    const res = await page.request.put(`/api/admin/level/${level.id}`, { headers: auth, data: { name: level.name, blast_fee: fee, requirement_blast: level.requirement_blast } });
    expect(res.ok()).toBeTruthy();
  }
  await page.goto('/audit');
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/audit\?page=2$/);
  await page.reload();
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
});

test('back and forward between two filtered states of one list show each state\'s rows', async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/member?s=member2%40demo.test');
  const search = page.getByPlaceholder('Cari Member');
  await expect(page.getByRole('row', { name: /member2@demo\.test/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /\bmember@demo\.test/ })).toHaveCount(0);
  // The menu's link opens the whole list: a new history entry of the same screen.
  await page.getByRole('complementary', { name: 'Menu utama' }).getByRole('link', { name: 'Daftar Member' }).click();
  await expect(page).toHaveURL(/\/member$/);
  await expect(page.getByRole('row', { name: /\bmember@demo\.test/ })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/member\?s=member2%40demo\.test$/);
  await expect(page.getByRole('row', { name: /\bmember@demo\.test/ })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /member2@demo\.test/ })).toBeVisible();
  await expect(search).toHaveValue('member2@demo.test');
  await page.goForward();
  await expect(page).toHaveURL(/\/member$/);
  await expect(page.getByRole('row', { name: /\bmember@demo\.test/ })).toBeVisible();
  await expect(search).toHaveValue('');
});

test("a number field given 'abc' says so under the field instead of going back to its old value", async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/level/create');
  const fee = page.getByRole('spinbutton', { name: 'Harga per Blast (Rp.)' });
  await fee.fill('120');
  await fee.fill('abc');
  await fee.blur();
  await expect(page.getByText('Harga per Blast harus berupa angka.')).toBeVisible();
  await fee.fill('125');
  await expect(page.getByText('Harga per Blast harus berupa angka.')).toHaveCount(0);
});

test('a save and a delete the spec is silent about are told by a notification', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const name = `Notif ${Date.now()}`;
  const created = await page.request.post('/api/admin/level/create', {
    headers: { Authorization: `Bearer ${token}` },
    data: { name, blast_fee: 10, requirement_blast: 800_000 + (Date.now() % 90_000) },
  });
  expect(created.ok()).toBeTruthy();
  const id = ((await created.json()) as { level: { id: number } }).level.id;
  await page.goto(`/level/edit?id=${id}`);
  await expect(page.getByLabel('Harga per Blast (Rp.)')).toHaveValue('10');
  await page.getByLabel('Harga per Blast (Rp.)').fill('11');
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page.locator('.ant-notification')).toContainText('Tersimpan.');

  const listed = await page.request.get('/api/admin/level/list-per-page?page=1', { headers: { Authorization: `Bearer ${token}` } });
  const last = ((await listed.json()) as { meta: { totalPages: number } }).meta.totalPages;
  await page.goto(`/level?page=${last}`);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await row.getByRole('button', { name: 'Delete' }).click();
  await pressInDialog(page, 'Hapus');
  await expect(row).toHaveCount(0);
  await expect(page.locator('.ant-notification')).toContainText('Terhapus.');
});

test("on a 390 px screen every row's Delete is in view without scrolling the table sideways", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInFast(page, DEMO.admin);
  for (const path of ['/phonenumber', '/proxy', '/level']) {
    await page.goto(path);
    const deletes = page.getByRole('button', { name: 'Delete' });
    await expect(deletes.first()).toBeVisible();
    const count = Math.min(await deletes.count(), 3);
    for (let i = 0; i < count; i++) {
      const box = await deletes.nth(i).boundingBox();
      expect(box, `${path} row ${i}`).not.toBeNull();
      expect(box!.x, `${path} row ${i}`).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `${path} row ${i}`).toBeLessThanOrEqual(390);
    }
  }
});
