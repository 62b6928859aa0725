import { expect, test, type Page } from '@playwright/test';
import { DEMO, DEMO_PASSWORD, signInFast } from './helpers';

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
  await expect(chart.getByTestId('daily-chart')).toBeVisible();
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
  await expect(chart.getByTestId('daily-chart')).toBeVisible();
  const res = await page.request.get(`/api/admin/messagelog/daily?days=14&userId=${user.id}`, { headers: { Authorization: `Bearer ${token}` } });
  const days = ((await res.json()) as { data: Array<{ success: number; fail: number }> }).data;
  const success = days.reduce((s, d) => s + d.success, 0).toLocaleString('id-ID');
  await expect(chart).toHaveAccessibleDescription(new RegExp(`^14 hari terakhir: ${success.replace('.', '\\.')} berhasil`));

  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('img', { name: TITLE }).getByTestId('daily-chart')).toBeVisible();
});

test('both dashboards speak English when it is chosen', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  const { user } = await signInFast(page, DEMO.admin);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: `Hello, ${user.firstname}!` })).toBeVisible();
  await expect(page.getByText('Unused Proxies')).toBeVisible();
  await expect(page.getByText('Total Blasts (Successful / Failed)')).toBeVisible();
  const chart = page.getByRole('img', { name: 'Blasts per Day (last 14 days)' });
  await expect(chart.getByTestId('daily-chart')).toBeVisible();
  await expect(chart).toHaveAccessibleDescription(/^Last 14 days: \d{1,3}(,\d{3})* successful, \d{1,3}(,\d{3})* failed\.$/);
  await expect(page.getByText(/Halo|Berhasil|hari/)).toHaveCount(0);

  const member = await signInFast(page, DEMO.member);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: `Hello, ${member.user.firstname}!` })).toBeVisible();
  await expect(page.getByText('Account Balance')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Blasts per Day (last 14 days)' }).getByTestId('daily-chart')).toBeVisible();
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

test('a blast result moves the admin dashboard\'s figures without a reload', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const headers = { Authorization: `Bearer ${token}` };
  const today = async () => ((await (await page.request.get('/api/admin/messagelog/today-count', { headers })).json()) as { success: number; fail: number });
  await page.goto('/');
  const tile = page.getByTestId('tile-todaySuccess');
  const before = await today();
  await expect(tile).toHaveAttribute('aria-busy', 'false');
  await expect(tile).toContainText(before.success.toLocaleString('id-ID'));
  // A marker on the window: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

  // Fresh receivers, so the send does not depend on what earlier flows left outside the recipient cooldown.
  const fresh = ((await (await page.request.get('/api/sim/numbers?registered=true&limit=960')).json()) as { numbers: Array<{ number: string; name: string }> }).numbers.slice(950);
  const csv = `number,name\n${fresh.map((n) => `${n.number},${n.name}`).join('\n')}\n`;
  const imported = await page.request.post('/api/admin/phonenumber/import', { headers, multipart: { file: { name: 'receivers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) } } });
  expect(imported.ok(), await imported.text()).toBeTruthy();
  // A member starts a blast on their own connected account (blasting is the member's and the developer's).
  const login = await page.request.post('/api/auth/login', { data: { email: DEMO.member, password: DEMO_PASSWORD } });
  const member = { Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const list = ((await (await page.request.get('/api/admin/whatsapp/list', { headers: member })).json()) as { list: Array<{ id: number; clientid: string; state: string; status: string; suspended: unknown }> }).list;
  // An idle one: a start on an account an earlier flow left sending keeps that run and its long waits.
  const sender = list.find((a) => a.state === 'connected' && a.status === 'idle' && !a.suspended);
  expect(sender, 'a connected demo account').toBeTruthy();
  const started = await page.request.post('/api/admin/whatsapp/start-blasting', { headers: member, data: { whatsappClientId: sender!.id, socketClientId: sender!.clientid, loop: false } });
  expect(started.ok(), await started.text()).toBeTruthy();
  try {
    await expect.poll(async () => (await today()).success, { timeout: 20_000 }).toBeGreaterThan(before.success);
    // The tile follows the server's figure (the engine may have sent more since): whatever the call says now.
    await expect.poll(async () => (await tile.innerText()).includes((await today()).success.toLocaleString('id-ID')), { timeout: 10_000 }).toBe(true);
    await expect(tile).not.toContainText(new RegExp(`(^|\\D)${before.success.toLocaleString('id-ID').replace('.', '\\.')}(\\D|$)`));
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  } finally {
    await page.request.post('/api/admin/whatsapp/stop-blasting', { headers: member, data: { whatsappClientId: sender!.id, socketClientId: sender!.clientid } });
  }
});

test('a figure whose call fails says so instead of showing 0', async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.route('**/api/admin/proxy/count-use', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"msg":"down"}' }));
  await page.goto('/');
  const failed = page.getByTestId('tile-unusedProxies');
  await expect(failed).toContainText('Gagal dimuat');
  await expect(failed).not.toContainText(/\d/);
  // The other figures are unaffected.
  await expect(page.getByTestId('tile-activeMembers')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('tile-activeMembers')).not.toContainText('Gagal dimuat');

  await page.evaluate(() => localStorage.setItem('lang', 'en'));
  await page.reload();
  await expect(page.getByTestId('tile-unusedProxies')).toContainText('Could not be loaded');
});

test('numbers are grouped the English way on an English screen and the Indonesian way on an Indonesian one', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const requirement = 1_150 + (Date.now() % 1000) * 1000;
  const name = `Format ${requirement}`;
  const created = await page.request.post('/api/admin/level/create', { headers: { Authorization: `Bearer ${token}` }, data: { name, blast_fee: 1150, requirement_blast: requirement } });
  expect(created.ok()).toBeTruthy();
  const en = requirement.toLocaleString('en-US');
  const id = requirement.toLocaleString('id-ID');
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.goto('/level');
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(en);
  await expect(row).toContainText('Rp 1,150');
  await page.getByRole('button', { name: 'Indonesia' }).click();
  await expect(row).toContainText(id);
  await expect(row).toContainText('Rp 1.150');
});
