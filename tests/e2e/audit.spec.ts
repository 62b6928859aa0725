import { expect, test } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

test('admin reads who changed what on the Audit Log screen, page by page; dev too, member not', async ({ page, browser }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const auth = { Authorization: `Bearer ${token}` };
  // Eleven audited changes: a level added, changed ten times.
  const created = await page.request.post('/api/admin/level/create', {
    headers: auth,
    data: { name: `Audit ${Date.now()}`, blast_fee: 10, requirement_blast: 900_000 + (Date.now() % 90_000) },
  });
  expect(created.ok()).toBeTruthy();
  const level = ((await created.json()) as { level: { id: number; name: string; requirement_blast: number } }).level;
  for (let fee = 11; fee <= 20; fee++) {
    const res = await page.request.put(`/api/admin/level/${level.id}`, { headers: auth, data: { name: level.name, blast_fee: fee, requirement_blast: level.requirement_blast } });
    expect(res.ok()).toBeTruthy();
  }

  await page.goto('/');
  await page.getByRole('link', { name: 'Audit Log' }).click();
  await expect(page).toHaveURL(/\/audit/);
  await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  for (const column of ['Waktu', 'Oleh', 'Untuk', 'Aksi', 'Detail']) await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
  const rows = page.getByRole('row').filter({ hasText: 'Ubah level' });
  await expect(rows.first()).toContainText('blast_fee: 19 → 20');
  await expect(rows.first()).toContainText('Adi Santoso');
  await expect(page.getByRole('row')).toHaveCount(11); // header + 10 rows
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'blast_fee: 19 → 20' })).toHaveCount(0);

  const devContext = await browser.newContext();
  const devPage = await devContext.newPage();
  await signInFast(devPage, DEMO.dev);
  await devPage.goto('/audit');
  await expect(devPage.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  await expect(devPage.getByRole('row').filter({ hasText: 'Ubah level' }).first()).toBeVisible();
  await devContext.close();

  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signInFast(memberPage, DEMO.member);
  await memberPage.goto('/audit');
  await expect(memberPage).toHaveURL(/\/not-authorized/);
  await memberContext.close();
});

test('the simulated phone asks a visitor to sign in as admin or dev, and works once they have', async ({ browser }) => {
  // A context of its own, without the simulator token header the other tests send.
  const context = await browser.newContext({ extraHTTPHeaders: {} });
  const page = await context.newPage();
  await page.goto('/sim');
  await expect(page.getByText('Telepon simulasi hanya untuk admin atau developer.')).toBeVisible();
  await signInFast(page, DEMO.member);
  await page.goto('/sim');
  await expect(page.getByText('Telepon simulasi hanya untuk admin atau developer.')).toBeVisible();
  await signInFast(page, DEMO.dev);
  await page.goto('/sim');
  await expect(page.getByRole('heading', { name: 'Telepon Simulasi' })).toBeVisible();
  await expect(page.getByText('Telepon simulasi hanya untuk admin atau developer.')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Scan' })).toBeVisible();
  await context.close();
});
