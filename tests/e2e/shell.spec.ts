import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

const menuLabels = async (page: Page) => (await page.getByTestId('sidebar-menu').getByRole('menuitem').allInnerTexts()).map((s) => s.trim());

test('the language switch turns the console to English and back, and is remembered', async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/profile');
  await expect(page.getByRole('link', { name: 'Daftar Phone Number' })).toBeVisible();
  await expect(page).toHaveTitle('User Profile | Blast Console');

  const languages = page.getByRole('group', { name: 'Bahasa' });
  await languages.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('link', { name: 'Phone Numbers' })).toBeVisible();
  await expect.poll(() => menuLabels(page)).toContain('Withdrawal Requests');
  await expect(page.getByTestId('global-search')).toHaveAttribute('placeholder', 'Search the menu… (Ctrl+K)');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('en');

  // The top-bar search follows the language too.
  await page.getByTestId('global-search').fill('proxies');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/proxy$/);
  await expect(page).toHaveTitle('Proxies | Blast Console');

  await page.reload();
  await expect(page.getByRole('link', { name: 'Phone Numbers' })).toBeVisible();
  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Indonesia' }).click();
  await expect(page.getByRole('link', { name: 'Daftar Phone Number' })).toBeVisible();
  await expect(page).toHaveTitle('Daftar Proxy | Blast Console');
  expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('id');
});

test("the console's texts come in one download per language, the English one only when English is chosen", async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await signInFast(page, DEMO.admin);
  await page.goto('/proxy');
  await expect(page.getByRole('heading', { name: 'Daftar Proxy' })).toBeVisible();
  const consoleTexts = (lang: string) => scripts.filter((p) => p.startsWith(`/assets/locales-console-${lang}-`));
  expect(consoleTexts('id')).toHaveLength(1);
  expect(consoleTexts('en')).toHaveLength(0);
  await page.getByRole('group', { name: 'Bahasa' }).getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'Proxies' })).toBeVisible();
  expect(consoleTexts('en')).toHaveLength(1);
});

test("a console screen's page names its JavaScript for preloading, and the browser fetches each file once", async ({ page, request }) => {
  const res = await request.get('/proxy');
  const files = [...(res.headers().link ?? '').matchAll(/<([^>]+)>; rel=modulepreload/g)].map((m) => m[1]!);
  expect(files.length).toBeGreaterThan(5);
  expect(files.some((f) => /\/assets\/list-[\w-]+\.js$/.test(f))).toBe(true);
  expect((await request.get('/assets/none.js')).headers().link).toBeUndefined();
  await signInFast(page, DEMO.admin);
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.goto('/proxy');
  await expect(page.getByRole('heading', { name: 'Daftar Proxy' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Tambah' })).toBeVisible();
  for (const f of files) expect(scripts.filter((s) => s === f), f).toHaveLength(1);
});

test('the sign-in page switches language before signing in', async ({ page }) => {
  await page.goto('/signin');
  await expect(page.getByText('Masuk dengan email dan password Anda.')).toBeVisible();
  await page.getByRole('group', { name: 'Bahasa' }).getByRole('button', { name: 'English' }).click();
  await expect(page.getByText('Sign in with your email and password.')).toBeVisible();
  // The spec's English labels are the same in both languages.
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Email and password are required.')).toBeVisible();
});

test('a remembered English opens /signin in English from the first paint, with no Indonesian or raw keys before it', async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem('lang', 'en');
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => {
      const text = document.body?.innerText ?? '';
      if (/Masuk dengan email|Belum punya akun|signIn\./.test(text)) seen.push(text.slice(0, 120));
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  // The English texts arrive late, so a page that rendered before them would show Indonesian first.
  await page.route('**/assets/*.js', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes('Sign in with your email and password.')) await new Promise((r) => setTimeout(r, 1500));
    await route.fulfill({ response, body });
  });
  await page.goto('/signin');
  await expect(page.getByText('Sign in with your email and password.')).toBeVisible();
  await expect(page.getByText("Don't have an account?")).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual([]);
});

test('on a 390 px phone the sidebar is a drawer that takes no width while closed', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInFast(page, DEMO.member);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'User Profile' }).first()).toBeVisible();
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  // The content starts at the left edge (only its padding), not beside a collapsed sidebar.
  const header = await page.getByRole('banner').boundingBox();
  expect(header?.x).toBe(0);
  expect(header?.width).toBe(390);
  // The search stays usable in the top bar.
  const search = await page.getByTestId('global-search').boundingBox();
  expect(search?.width).toBeGreaterThan(100);

  await page.getByRole('button', { name: 'Buka atau tutup menu' }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer).toBeVisible();
  await expect.poll(() => menuLabels(page)).toEqual(['Dashboard', 'Akun Whatsapp', 'Withraw', 'Bonus', 'Pengguna Referal', 'User Profile', 'Telegram Support']);
  await drawer.getByRole('link', { name: 'Bonus' }).click();
  await expect(page).toHaveURL(/\/bonus$/);
  await expect(drawer).toBeHidden();

  await page.getByTestId('global-search').fill('withraw');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/withdraw$/);
});

test('every screen sets the browser tab title', async ({ page }) => {
  await page.goto('/signin');
  await expect(page).toHaveTitle('Sign In | Blast Console');
  await page.goto('/signup');
  await expect(page).toHaveTitle('Sign Up | Blast Console');
  await page.goto('/no/such/page');
  await expect(page).toHaveTitle('Halaman tidak ditemukan | Blast Console');

  await signInFast(page, DEMO.admin);
  for (const [path, title] of [
    ['/dashboard', 'Dashboard'],
    ['/phonenumber', 'Daftar Phone Number'],
    ['/phonenumber/create', 'Tambah Phone Number'],
    ['/member', 'Daftar Member'],
    ['/generator/list', 'Daftar Generator'],
    ['/settings', 'Pengaturan'],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveTitle(`${title} | Blast Console`);
  }
  await page.getByRole('link', { name: 'Template Pesan' }).click();
  await expect(page).toHaveTitle('Template Pesan | Blast Console');
});

test('a stored user without a role goes to /signin and may sign in again', async ({ page, context }) => {
  const { token } = await signInFast(page, DEMO.member);
  await context.addCookies([
    { name: 'authToken', value: token, domain: 'localhost', path: '/' },
    { name: 'user', value: encodeURIComponent(JSON.stringify({ id: 1, firstname: 'X', lastname: 'Y', email: 'x@y' })), domain: 'localhost', path: '/' },
  ]);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('a token check that fails signs out and /signin says Internal server error', async ({ page, context }) => {
  await signInFast(page, DEMO.admin);
  await page.route('**/api/auth/validate', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"msg":"boom"}' }));
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByTestId('signin-error')).toHaveText('Internal server error');
  expect((await context.cookies()).some((c) => c.name === 'authToken')).toBe(false);
});

test('the password toggle uses the eye icons and shows the password', async ({ page }) => {
  await page.goto('/signin');
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('rahasia');
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Tampilkan password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await expect(page.getByRole('button', { name: 'Sembunyikan password' }).locator('.anticon-eye')).toBeVisible();
  // A mouse click leaves focus in the field.
  await expect(password).toBeFocused();
});

for (const theme of ['light', 'dark'] as const) {
  test(`/signin and /signup have no serious or critical accessibility violations (${theme})`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
    for (const path of ['/signin', '/signup']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const result = await new AxeBuilder({ page }).analyze();
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${path} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
  });
}

test('a tab left open while another tab signs in as someone else starts again as that user when it is used', async ({ context }) => {
  const first = await context.newPage();
  const budi = await signInFast(first, DEMO.member);
  await first.goto('/dashboard');
  await expect(first.getByRole('heading', { name: `Halo, ${budi.user.firstname}!` })).toBeVisible();

  // The second tab shares the cookies: it signs in as another member.
  const second = await context.newPage();
  const rina = await signInFast(second, DEMO.member2);
  await second.goto('/dashboard');
  await expect(second.getByRole('heading', { name: `Halo, ${rina.user.firstname}!` })).toBeVisible();

  // Back in the first tab: it does not go on as Budi over Rina's session.
  await first.bringToFront();
  await first.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(first.getByRole('heading', { name: `Halo, ${rina.user.firstname}!` })).toBeVisible();
  await expect(first.getByRole('button', { name: new RegExp(rina.user.firstname) })).toBeVisible();
});
