import { expect, test, type Page } from '@playwright/test';
import { DEMO, DEMO_PASSWORD, signIn, signInFast } from './helpers';

const menuLabels = async (page: Page) =>
  (await page.getByTestId('sidebar-menu').locator('li.ant-menu-item').allInnerTexts()).map((s) => s.trim());

test('sign up through a referral link: code prefilled, parameter removed, lands on the dashboard', async ({ page }) => {
  await page.goto('/signup?referral=BUDI2024');
  await expect(page.locator('input[name="affiliateCode"]')).toHaveValue('BUDI2024');
  await expect(page).toHaveURL(/\/signup$/);
  expect(await page.evaluate(() => localStorage.getItem('referral_code'))).toBe('BUDI2024');

  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('First name is required.')).toBeVisible();
  await expect(page.getByText('Please confirm your password.')).toBeVisible();

  const email = `new${Date.now()}@demo.test`;
  await page.locator('input[name="firstName"]').fill('Nadia');
  await expect(page.getByText('First name is required.')).toHaveCount(0);
  await page.locator('input[name="lastName"]').fill('Putri');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill('rahasia123');
  await page.locator('input[name="password2"]').fill('rahasia124');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('Passwords do not match.')).toBeVisible();
  await page.locator('input[name="password2"]').fill('rahasia123');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('You must agree to the terms and conditions.')).toBeVisible();
  await page.locator('input[name="agreeToTerms"]').check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  const cookies = await page.context().cookies();
  const token = cookies.find((c) => c.name === 'authToken');
  const user = cookies.find((c) => c.name === 'user');
  expect(token?.path).toBe('/');
  expect(user?.path).toBe('/');
  // The app asks for ten years (unit-tested); Chromium caps any cookie at 400 days.
  const almostMax = Date.now() / 1000 + 399 * 24 * 3600;
  expect(token!.expires).toBeGreaterThan(almostMax);
  expect(user!.expires).toBeGreaterThan(almostMax);
  // The cookie keeps the spec's user (and the referral code), not the rest of the login answer.
  const stored = JSON.parse(decodeURIComponent(user!.value)) as { id: number; email: string };
  expect(stored.email).toBe(email);
  expect(Object.keys(stored).sort()).toEqual(['email', 'firstname', 'id', 'lastname', 'referral_code', 'role']);
  const detail = await page.request.get(`/api/admin/users/${stored.id}`, { headers: { Authorization: `Bearer ${token!.value}` } });
  expect(((await detail.json()) as { user: { referred_by: number } }).user.referred_by).toBeGreaterThan(0);
});

test('wrong password shows the locale\'s text for the server\'s answer; the right one signs in and removes the analytics cookie', async ({ page, context }) => {
  await context.addCookies([{ name: 'analytics', value: 'x', domain: 'localhost', path: '/' }]);
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Email and password are required.')).toBeVisible();
  await page.locator('input[name="email"]').fill(DEMO.member);
  await page.locator('input[name="password"]').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signin-error')).toHaveText('Email atau kata sandi salah');
  await expect(page.getByText('Keep me logged in')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/reset-password');
  await expect(page.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signup');
  await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await context.cookies()).some((c) => c.name === 'analytics')).toBe(false);

  // Signed in: /signin and /signup go to the dashboard.
  await page.goto('/signin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/signup');
  await expect(page).toHaveURL(/\/dashboard$/);

  // Sign out removes authToken only and goes to /signin.
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('user-info')).toContainText('member@demo.test');
  await expect(page.getByRole('link', { name: 'Edit profile' })).toHaveAttribute('href', '/profile?edit=true');
  await expect(page.getByRole('link', { name: 'User Profile' }).last()).toHaveAttribute('href', '/profile');
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  const names = (await context.cookies()).map((c) => c.name);
  expect(names).not.toContain('authToken');
  expect(names).toContain('user');
});

test('a member opening /member lands on /not-authorized; no token goes to /signin', async ({ page }) => {
  await page.goto('/member');
  await expect(page).toHaveURL(/\/signin$/);
  await signInFast(page, DEMO.member);
  await page.goto('/member');
  await expect(page).toHaveURL(/\/not-authorized$/);
});

test('an invalid token signs the visitor out', async ({ page, context }) => {
  await context.addCookies([
    { name: 'authToken', value: 'forged.token.value', domain: 'localhost', path: '/' },
    { name: 'user', value: encodeURIComponent(JSON.stringify({ id: 1, role: 'admin', firstname: 'X', lastname: 'Y', email: 'x@y' })), domain: 'localhost', path: '/' },
  ]);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/signin$/);
  expect((await context.cookies()).some((c) => c.name === 'authToken')).toBe(false);
});

const MENUS: Record<string, string[]> = {
  admin: ['Dashboard', 'Daftar Phone Number', 'Daftar Member', 'Daftar Generator', 'Daftar Validator', 'Template Pesan', 'Permintaan Withdraw', 'Bonus', 'Level', 'Proxy', 'Pengaturan', 'Audit Log', 'User Profile'],
  dev: ['Dashboard', 'Daftar Phone Number', 'Daftar Member', 'Daftar Generator', 'Daftar Validator', 'Template Pesan', 'Permintaan Withdraw', 'Bonus', 'Audit Log', 'User Profile'],
  member: ['Dashboard', 'Akun Whatsapp', 'Withraw', 'Bonus', 'Pengguna Referal', 'User Profile', 'Telegram Support'],
  staff: ['Permintaan Withdraw', 'Daftar Generator', 'Daftar Validator', 'User Profile'],
};

for (const role of ['admin', 'dev', 'member', 'staff'] as const) {
  test(`${role} sees exactly their menu`, async ({ page }) => {
    await signInFast(page, DEMO[role]);
    await page.goto('/profile');
    await expect(page.getByTestId('sidebar')).toBeVisible();
    // Entries appear once the access-control provider has answered for each.
    await expect.poll(() => menuLabels(page)).toEqual(MENUS[role]);
    if (role === 'member') {
      await expect(page.getByRole('link', { name: 'Telegram Support' })).toHaveAttribute('href', /^https:\/\/t\.me\//);
    }
  });
}

test('staff at / are sent to the withdraw requests', async ({ page }) => {
  await signInFast(page, DEMO.staff);
  await page.goto('/');
  await expect(page).toHaveURL(/\/withdraw\/requested\?page=1$/);
});

test('the theme survives a reload; Ctrl+K focuses search; the sidebar is 290 px and collapses to 90 px', async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/profile');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

  // The shortcut belongs to the top bar, which shows once the session is checked.
  await expect(page.getByTestId('global-search')).toBeVisible();
  await page.locator('body').click();
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('global-search')).toBeFocused();

  await expect(page.getByTestId('sidebar')).toHaveCSS('width', '290px');
  await page.getByRole('button', { name: 'Buka atau tutup menu' }).click();
  await expect(page.getByTestId('sidebar')).toHaveCSS('width', '90px');
  // Tablets (768–1023 px) start collapsed; phones get a drawer instead (tests/e2e/shell.spec.ts).
  await page.setViewportSize({ width: 900, height: 800 });
  await page.reload();
  await expect(page.getByTestId('sidebar')).toHaveCSS('width', '90px');
});

test('an unknown path shows the not-found screen', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('We can\u2019t seem to find the page you are looking for!')).toBeVisible();
  await page.getByRole('link', { name: 'Back to Home Page' }).click();
  await expect(page).toHaveURL(/\/signin$/);
});

test('signing in through the form works for the admin', async ({ page }) => {
  await signIn(page, DEMO.admin);
  await expect(page).toHaveURL(/\/dashboard$/);
});
