import { expect, test, type Page } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

const TITLE = 'Blast per Hari (14 hari)';

/** Names of the lazily loaded chart chunk requested by the page. */
function chartChunks(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (req) => {
    if (/\/assets\/DailyChart-[^/]+\.js$/.test(req.url())) seen.push(req.url());
  });
  return seen;
}

test('the admin dashboard draws everyone\'s blasts per day, loading the chart code only there', async ({ page }) => {
  const seen = chartChunks(page);
  const { token } = await signInFast(page, DEMO.admin);
  await page.goto('/phonenumber');
  await expect(page.getByRole('heading', { name: 'Daftar Phone Number' })).toBeVisible();
  expect(seen, 'no chart code on a list screen').toEqual([]);

  await page.goto('/');
  const chart = page.getByRole('img', { name: TITLE });
  await expect(chart).toBeVisible();
  await expect(chart.locator('canvas')).toHaveCount(1);
  expect(seen).toHaveLength(1);

  // The summary read by screen readers carries the same totals the call answers.
  const res = await page.request.get('/api/admin/messagelog/daily?days=14', { headers: { Authorization: `Bearer ${token}` } });
  const days = ((await res.json()) as { data: Array<{ success: number; fail: number }> }).data;
  const success = days.reduce((s, d) => s + d.success, 0).toLocaleString('id-ID');
  const fail = days.reduce((s, d) => s + d.fail, 0).toLocaleString('id-ID');
  await expect(chart).toHaveAccessibleDescription(`14 hari terakhir: ${success} berhasil, ${fail} gagal.`);
});

test('the member dashboard draws their own blasts per day, in light and dark theme', async ({ page }) => {
  const { token, user } = await signInFast(page, DEMO.member);
  await page.goto('/dashboard');
  const chart = page.getByRole('img', { name: TITLE });
  await expect(chart).toBeVisible();
  await expect(chart.locator('canvas')).toHaveCount(1);
  const res = await page.request.get(`/api/admin/messagelog/daily?days=14&userId=${user.id}`, { headers: { Authorization: `Bearer ${token}` } });
  const days = ((await res.json()) as { data: Array<{ success: number; fail: number }> }).data;
  const success = days.reduce((s, d) => s + d.success, 0).toLocaleString('id-ID');
  await expect(chart).toHaveAccessibleDescription(new RegExp(`^14 hari terakhir: ${success.replace('.', '\\.')} berhasil`));

  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('img', { name: TITLE }).locator('canvas')).toHaveCount(1);
});

test('both dashboards speak English when it is chosen', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  const { user } = await signInFast(page, DEMO.admin);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: `Hello, ${user.firstname}!` })).toBeVisible();
  await expect(page.getByText('Unused Proxies')).toBeVisible();
  await expect(page.getByText('Total Blasts (Successful / Failed)')).toBeVisible();
  const chart = page.getByRole('img', { name: 'Blasts per Day (last 14 days)' });
  await expect(chart.locator('canvas')).toHaveCount(1);
  await expect(chart).toHaveAccessibleDescription(/^Last 14 days: [\d.]+ successful, [\d.]+ failed\.$/);
  await expect(page.getByText(/Halo|Berhasil|hari/)).toHaveCount(0);

  const member = await signInFast(page, DEMO.member);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: `Hello, ${member.user.firstname}!` })).toBeVisible();
  await expect(page.getByText('Account Balance')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Blasts per Day (last 14 days)' }).locator('canvas')).toHaveCount(1);
  await expect(page.getByText(/Halo|Sisa Saldo|hari/)).toHaveCount(0);
});

test('a figure not known yet shows as loading on a first visit, never as a false 0', async ({ page }) => {
  const { token, user } = await signInFast(page, DEMO.member);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/admin/withdraw/balance/**', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/dashboard');
  const balance = page.getByTestId('tile-balance');
  await expect(page.getByTestId('tile-bonus')).toHaveAttribute('aria-busy', 'false');
  await expect(balance).toHaveAttribute('aria-busy', 'true');
  await expect(balance).not.toContainText('Rp');
  release();
  const answer = await page.request.get(`/api/admin/withdraw/balance/${user.id}`, { headers: { Authorization: `Bearer ${token}` } });
  const figure = ((await answer.json()) as { balance: number }).balance;
  await expect(balance).toHaveAttribute('aria-busy', 'false');
  await expect(balance).toContainText(`Rp ${figure.toLocaleString('id-ID')}`);
});
