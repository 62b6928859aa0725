import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

test('admin downloads the message log and the withdrawals for a date range from the Audit Log screen; dev has no bank details', async ({ page, browser }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/audit');
  await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  await page.getByRole('button', { name: 'Ekspor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ekspor untuk pembukuan' });
  await expect(dialog).toBeVisible();

  // A reversed range is refused in the screen's language, and the dialog stays open.
  await dialog.getByRole('radio', { name: 'Log pesan' }).check();
  await dialog.getByLabel('Dari tanggal').fill('2026-12-31');
  await dialog.getByLabel('Sampai tanggal').fill('2026-01-01');
  await dialog.getByRole('button', { name: 'Unduh' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Tanggal awal tidak boleh setelah tanggal akhir.');

  await dialog.getByLabel('Dari tanggal').fill('2000-01-01');
  await dialog.getByLabel('Sampai tanggal').fill('2099-12-31');
  const [logFile] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Unduh' }).click()]);
  expect(logFile.suggestedFilename()).toBe('message_log_2000-01-01_2099-12-31.csv');
  const log = fs.readFileSync((await logFile.path())!, 'utf8').trim().split('\r\n');
  expect(log[0]).toBe('id,createdAt,user_id,whatsapp_id,number,template_id,success,error_code,income,delivery_status');
  expect(log.length).toBeGreaterThan(1); // the demo's sends
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Ekspor' }).click();
  await page.getByRole('radio', { name: 'Withdraw (dengan data rekening)' }).check();
  await page.getByLabel('Dari tanggal').fill('2000-01-01');
  await page.getByLabel('Sampai tanggal').fill('2099-12-31');
  const [withdrawFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Unduh' }).click()]);
  const withdrawals = fs.readFileSync((await withdrawFile.path())!, 'utf8').split('\r\n');
  expect(withdrawals[0]).toBe('id,nominal,status,createdAt,updatedAt,user_id,firstname,lastname,email,account_bank,account_number,account_name');

  const devContext = await browser.newContext();
  const devPage = await devContext.newPage();
  await signInFast(devPage, DEMO.dev);
  await devPage.goto('/audit');
  await devPage.getByRole('button', { name: 'Ekspor' }).click();
  const devDialog = devPage.getByRole('dialog', { name: 'Ekspor untuk pembukuan' });
  await expect(devDialog.getByRole('radio', { name: 'Member' })).toBeVisible();
  await expect(devDialog.getByRole('radio', { name: /Withdraw/ })).toHaveCount(0);
  const [members] = await Promise.all([devPage.waitForEvent('download'), devDialog.getByRole('button', { name: 'Unduh' }).click()]);
  expect(members.suggestedFilename()).toBe('members.csv');
  expect(fs.readFileSync((await members.path())!, 'utf8')).toMatch(/^id,firstname,lastname,email,level,income,createdAt,whatsapps,/);
  await devContext.close();
});
