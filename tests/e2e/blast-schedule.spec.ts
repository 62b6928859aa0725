import { expect, test, type Page } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

const pad = (n: number) => String(n).padStart(2, '0');
/** A time as the dialog's field takes it (the browser's own clock, as the member sees it). */
const typed = (d: Date) => `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;

async function openSchedule(page: Page, pushname: string, more: string, item: string) {
  const row = page.getByRole('row').filter({ hasText: pushname });
  await row.getByRole('button', { name: more }).click();
  await page.getByRole('menuitem', { name: item }).click();
  return row;
}

/** Types a time into the dialog's field; Enter takes it and submits the dialog's form, as in any form. */
async function typeTime(page: Page, label: string, value: string) {
  const field = page.getByRole('dialog').getByLabel(label);
  await field.fill(value);
  await field.press('Enter');
}

test('a member schedules a blast from Start’s menu, sees it on the row after a reload, and cancels it; a time too soon is a field error', async ({ page }) => {
  await signInFast(page, DEMO.member);
  await page.goto('/whatsapp');
  const row = await openSchedule(page, 'Budi Promo', 'Pilihan Start', 'Jadwalkan');
  const dialog = page.getByRole('dialog', { name: 'Jadwalkan Blast Budi Promo' });
  await expect(dialog).toBeVisible();

  // Now is too soon: the server's reason shows on the field and the dialog stays open.
  await typeTime(page, 'Waktu Mulai', typed(new Date()));
  await expect(dialog.getByText('Waktu jadwal harus paling cepat 1 menit dari sekarang')).toBeVisible();

  const tomorrow = new Date(Date.now() + 24 * 3600_000);
  tomorrow.setHours(10, 0, 0, 0);
  await page.getByRole('dialog').getByLabel('Waktu Mulai').fill(typed(tomorrow));
  await page.getByRole('dialog').getByLabel('Waktu Mulai').press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Blast dijadwalkan')).toBeVisible();
  await expect(row.getByText(`Terjadwal ${typed(tomorrow)}`)).toBeVisible();

  await page.reload();
  const again = page.getByRole('row').filter({ hasText: 'Budi Promo' });
  await expect(again.getByText(`Terjadwal ${typed(tomorrow)}`)).toBeVisible();
  await again.getByText('Batalkan jadwal').click();
  await expect(page.getByText('Jadwal blast dibatalkan')).toBeVisible();
  await expect(again.getByTestId('wa-schedule')).toHaveCount(0);
});

test('in English the schedule reads "Scheduled"; an admin sees it on the member’s row, live, and can cancel it', async ({ page, browser }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await signInFast(page, DEMO.member);

  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signInFast(adminPage, DEMO.admin);
  await adminPage.goto('/whatsapp?s=Budi%20Promo');
  const adminRow = adminPage.getByRole('row').filter({ hasText: 'Budi Promo' });
  await expect(adminRow).toBeVisible();

  await page.goto('/whatsapp');
  await openSchedule(page, 'Budi Promo', 'Start options', 'Schedule');
  const dialog = page.getByRole('dialog', { name: 'Schedule the blast of Budi Promo' });
  const at = new Date(Date.now() + 2 * 24 * 3600_000);
  at.setHours(9, 30, 0, 0);
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeVisible();
  await typeTime(page, 'Start time', typed(at));
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: 'Budi Promo' }).getByText(`Scheduled ${typed(at)}`)).toBeVisible();

  // The admin's list follows the event without a reload.
  await expect(adminRow.getByText(`Terjadwal ${typed(at)}`)).toBeVisible();
  await adminRow.getByText('Batalkan jadwal').click();
  await expect(adminRow.getByTestId('wa-schedule')).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: 'Budi Promo' }).getByTestId('wa-schedule')).toHaveCount(0);
  await admin.close();
});
