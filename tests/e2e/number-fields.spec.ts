import { expect, test, type Page } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

/**
 * The console's number fields have no step handles: antd's carry the English names 'Increase Value' /
 * 'Decrease Value' on every screen and no keyboard can reach them. Each field is a spinbutton named by its
 * label, and ArrowUp / ArrowDown step it.
 */

const STEP_HANDLES = /Increase Value|Decrease Value/;

async function noStepHandles(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: STEP_HANDLES })).toHaveCount(0);
  await expect(page.locator('.ant-input-number-handler')).toHaveCount(0);
}

test('the number fields of the administration screens are spinbuttons named by their labels, without English step handles', async ({ page }) => {
  await signInFast(page, DEMO.admin);
  const screens: Array<{ path: string; heading: string; fields: string[] }> = [
    { path: '/settings', heading: 'Form Pengaturan', fields: ['Interval Min (s)', 'Interval Max (s)', 'Harga per Blast (Rp.)', 'Persentase Referal (%)', 'Jeda Penerima (jam)'] },
    { path: '/level/create', heading: 'Tambah Level', fields: ['Harga per Blast (Rp.)', 'Syarat Minimal Blast'] },
    { path: '/bonus/create', heading: 'Kirim Bonus', fields: ['Nominal'] },
    { path: '/generator/create', heading: 'Tambah Akun Generator', fields: ['Interval Min', 'Interval Max'] },
  ];
  for (const screen of screens) {
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { name: screen.heading }).first()).toBeVisible();
    for (const label of screen.fields) await expect(page.getByRole('spinbutton', { name: label }), `${screen.path} ${label}`).toBeVisible();
    await noStepHandles(page);
  }

  // The keyboard steps the field: the recipient cooldown (24 h in a new install) goes up and back down.
  await page.goto('/settings');
  const cooldown = page.getByRole('spinbutton', { name: 'Jeda Penerima (jam)' });
  await expect(cooldown).not.toHaveValue('');
  const before = Number(await cooldown.inputValue());
  await cooldown.focus();
  await page.keyboard.press('ArrowUp');
  await expect(cooldown).toHaveValue(String(before + 1));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(cooldown).toHaveValue(String(before - 1));
});

test("a member's withdraw amount steps by Rp 1.000 from the keyboard, and the English screen has no step handles either", async ({ page }) => {
  await signInFast(page, DEMO.member);
  await page.goto('/withdraw');
  const nominal = page.getByRole('spinbutton', { name: 'Nominal (Rp.)' });
  await nominal.fill('10000');
  await nominal.press('ArrowUp');
  await expect(nominal).toHaveValue('11000');
  await noStepHandles(page);

  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.goto('/withdraw');
  await expect(page.getByRole('spinbutton', { name: 'Amount (Rp.)' })).toBeVisible();
  await noStepHandles(page);
});
