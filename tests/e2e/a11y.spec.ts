import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

/** The screens issue 13 names, with the role that sees each one. */
const SCREENS: { who: string; paths: string[] }[] = [
  { who: DEMO.admin, paths: ['/dashboard', '/phonenumber', '/phonenumber/create', '/message/create', '/settings'] },
  { who: DEMO.member, paths: ['/dashboard', '/whatsapp', '/withdraw'] },
];

async function seriousViolations(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
  // Let lists and charts finish loading so axe sees the screen a person sees.
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${path} ${v.id}: ${v.nodes.map((n) => n.target.join(' ') + (process.env.A11Y_DEBUG ? ` [${n.any.map((c) => c.message).join('; ')}]` : '')).join(', ')}`);
}

for (const theme of ['light', 'dark'] as const) {
  for (const { who, paths } of SCREENS) {
    test(`${who.split('@')[0]} screens have no serious or critical accessibility violations (${theme})`, async ({ page }) => {
      await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
      await signInFast(page, who);
      const bad: string[] = [];
      for (const path of paths) bad.push(...(await seriousViolations(page, path)));
      expect(bad).toEqual([]);
    });
  }
}

test('the keyboard leaves the caption editor with Tab and Shift+Tab instead of typing a tab into it', async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/message/create');
  const editor = page.locator('.ql-editor');
  await editor.click();
  await page.keyboard.type('Halo');
  await page.keyboard.press('Tab');
  await expect(editor).not.toBeFocused();
  await expect(editor).toHaveText('Halo');
  await editor.click();
  await page.keyboard.press('Shift+Tab');
  await expect(editor).not.toBeFocused();
  await expect(editor).toHaveText('Halo');
});

test("the user menu's Edit profile opens the profile dialog from the keyboard", async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/dashboard');
  await page.getByTestId('user-menu').focus();
  await page.keyboard.press('Enter');
  const entry = page.getByRole('menuitem', { name: 'Edit profile' });
  await expect(entry).toBeVisible();
  await entry.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/profile\?edit=true$/);
  await expect(page.getByRole('dialog', { name: 'Edit Profil' })).toBeVisible();
  // antd's own texts follow the language: the referral code's copy button is 'Salin', not 'Copy'.
  await expect(page.getByRole('button', { name: 'Salin' })).toBeVisible();
});

test('choosing a language by keyboard keeps focus on the language switch', async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'English' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'English' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Indonesia' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Indonesia' })).toBeFocused();
});
