import { expect, test } from '@playwright/test';

test("a server field error shows the locale's text, Indonesian by default and English after switching", async ({ page }) => {
  await page.goto('/signup');
  await page.getByLabel('First Name').fill('Nadia');
  await page.getByLabel('Last Name').fill('Putri');
  await page.getByLabel('Email').fill(`short${Date.now()}@demo.test`);
  await page.getByLabel('Password', { exact: true }).fill('pendek');
  await page.getByLabel('Confirm Password').fill('pendek');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  // Shown once, under the field, not repeated in the alert above the form.
  await expect(page.getByRole('alert')).toHaveText(['Password minimal 8 karakter.']);
  await expect(page.getByTestId('signup-error')).toHaveCount(0);
  await expect(page.getByText('Password must be at least 8 characters.')).toHaveCount(0);

  await page.evaluate(() => localStorage.setItem('lang', 'en'));
  await page.reload();
  await page.getByLabel('First Name').fill('Nadia');
  await page.getByLabel('Last Name').fill('Putri');
  await page.getByLabel('Email').fill(`short${Date.now()}@demo.test`);
  await page.getByLabel('Password', { exact: true }).fill('pendek');
  await page.getByLabel('Confirm Password').fill('pendek');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByRole('alert')).toHaveText(['Password must be at least 8 characters.']);
});
