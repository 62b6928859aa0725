import { expect, test, type Page } from '@playwright/test';

/** A fresh member of our own, signed in, so these tests never change the demo members' rows. */
async function freshMember(page: Page): Promise<void> {
  const email = `wac${Date.now()}${Math.floor(Math.random() * 1000)}@e2e.test`;
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Wulan', lastName: 'Tester', email, password: 'rahasia123', password2: 'rahasia123', referral_code: '', agreeToTerms: true },
  });
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as { token: string; user: { id: number } };
  await page.context().addCookies([
    { name: 'authToken', value: body.token, domain: 'localhost', path: '/' },
    { name: 'user', value: encodeURIComponent(JSON.stringify(body.user)), domain: 'localhost', path: '/' },
  ]);
}

test("pairing with '62' alone says the number is incomplete; another prefix says it must start with 62", async ({ page }) => {
  await freshMember(page);
  await page.goto('/whatsapp/create');
  await page.getByText('Login dengan Nomor').click();
  await expect(page.getByLabel('Nomor WhatsApp')).toHaveValue('62');
  await page.getByRole('button', { name: 'Generate Pairing Code' }).click();
  await expect(page.getByText('Nomor WhatsApp belum lengkap, contoh 6281xxxxxxx')).toBeVisible();
  await page.getByLabel('Nomor WhatsApp').fill('081234567890');
  await page.getByRole('button', { name: 'Generate Pairing Code' }).click();
  await expect(page.getByText('Nomor harus diawali 62, contoh 6281xxxxxxx')).toBeVisible();
  await expect(page.getByTestId('pairing-code')).toHaveCount(0);
});

test('the WhatsApp screens speak English when English is chosen', async ({ page }) => {
  await freshMember(page);
  await page.addInitScript(() => window.localStorage.setItem('lang', 'en'));
  await page.goto('/whatsapp');
  await expect(page.getByRole('heading', { name: 'WhatsApp accounts' })).toBeVisible();
  await expect(page.getByText('Empty')).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Total income' })).toBeVisible();
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('heading', { name: 'Add WhatsApp account' })).toBeVisible();
  await expect(page.getByText('Sign in with a number')).toBeVisible();
});

test("an expired QR stops waiting: the 'message created' long poll is cut off", async ({ page }) => {
  await freshMember(page);
  await page.clock.install();
  await page.goto('/whatsapp/create');
  await page.getByRole('button', { name: 'Generate QR Code' }).click();
  await expect(page.getByTestId('qr-image')).toBeVisible();
  const cut = page.waitForEvent('requestfailed', { predicate: (r) => r.url().includes('/listen-message-created/'), timeout: 10_000 });
  await page.clock.fastForward('01:01');
  await expect(page.getByText('QR Code sudah kedaluwarsa.')).toBeVisible();
  expect((await cut).url()).toContain('/api/admin/whatsapp/listen-message-created/');
});

test.describe('a browser without the simulated phone (a member on the demo, no simulator token)', () => {
  test.use({ extraHTTPHeaders: {} });

  test('is told who scans the code instead of a link to a phone that refuses it', async ({ page }) => {
    await freshMember(page);
    await page.goto('/whatsapp/create');
    await page.getByRole('button', { name: 'Generate QR Code' }).click();
    await expect(page.getByTestId('qr-image')).toBeVisible();
    await expect(page.getByText('Di layanan simulasi ini, admin atau developer memindai kode ini di telepon simulasi (/sim).')).toBeVisible();
    await expect(page.getByTestId('sim-link')).toHaveCount(0);
  });
});
