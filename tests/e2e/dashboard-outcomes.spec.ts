import { expect, test, type Page } from '@playwright/test';
import { DEMO, DEMO_PASSWORD, signInFast } from './helpers';

type Today = { sent: number; delivered: number; read: number; failed: number };
type Account = { id: number; clientid: string; state: string; status: string; suspended: unknown; today: Today };

const id = (n: number) => n.toLocaleString('id-ID');

/** A figure of the row's 'Hari Ini' group, found by its label. */
const figure = (page: Page, clientid: string, label: string) => page.getByRole('row', { name: new RegExp(clientid) }).getByRole('group', { name: label, exact: true });

test("an account's sends of today show as sent, delivered, read and failed on its row and on the admin dashboard, live, in Indonesian and English", async ({ page }) => {
  const login = await page.request.post('/api/auth/login', { data: { email: DEMO.member, password: DEMO_PASSWORD } });
  const member = { Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const accounts = async () => ((await (await page.request.get('/api/admin/whatsapp/list-per-page?page=1', { headers: member })).json()) as { data: Account[] }).data;
  const sender = (await accounts()).find((a) => a.state === 'connected' && a.status === 'idle' && !a.suspended);
  expect(sender, 'a connected, idle demo account on the first page').toBeTruthy();
  const before = sender!.today;

  await signInFast(page, DEMO.member);
  await page.goto('/whatsapp');
  for (const [label, value] of [['Terkirim', before.sent], ['Diterima', before.delivered], ['Dibaca', before.read], ['Gagal', before.failed]] as const) {
    await expect(figure(page, sender!.clientid, label)).toHaveText(`${label} ${id(value)}`);
  }

  // Fresh receivers (an admin imports them), so the send does not wait for the recipient cooldown.
  const admin = await page.request.post('/api/auth/login', { data: { email: DEMO.admin, password: DEMO_PASSWORD } });
  const adminHeaders = { Authorization: `Bearer ${((await admin.json()) as { token: string }).token}` };
  const fresh = ((await (await page.request.get('/api/sim/numbers?registered=true&limit=990')).json()) as { numbers: Array<{ number: string; name: string }> }).numbers.slice(980);
  const csv = `number,name\n${fresh.map((n) => `${n.number},${n.name}`).join('\n')}\n`;
  const imported = await page.request.post('/api/admin/phonenumber/import', { headers: adminHeaders, multipart: { file: { name: 'receivers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) } } });
  expect(imported.ok(), await imported.text()).toBeTruthy();

  // One send; the simulator reports it delivered after its latency: the row follows without a reload.
  const started = await page.request.post('/api/admin/whatsapp/start-blasting', { headers: member, data: { whatsappClientId: sender!.id, socketClientId: sender!.clientid, loop: false } });
  expect(started.ok(), await started.text()).toBeTruthy();
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await expect(figure(page, sender!.clientid, 'Terkirim')).toHaveText(`Terkirim ${id(before.sent + 1)}`, { timeout: 20_000 });
  await expect(figure(page, sender!.clientid, 'Diterima')).toHaveText(`Diterima ${id(before.delivered + 1)}`, { timeout: 10_000 });
  await expect(figure(page, sender!.clientid, 'Gagal')).toHaveText(`Gagal ${id(before.failed)}`);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  // The row says what the server counts.
  const after = (await accounts()).find((a) => a.id === sender!.id)!.today;
  expect(after.delivered).toBeGreaterThanOrEqual(before.delivered + 1);

  await page.getByRole('button', { name: 'English' }).click();
  for (const label of ['Sent', 'Delivered', 'Read', 'Failed']) await expect(figure(page, sender!.clientid, label)).toBeVisible();
  await expect(figure(page, sender!.clientid, 'Sent')).toHaveText(`Sent ${(before.sent + 1).toLocaleString('en-US')}`);

  // The admin dashboard: today's delivered and read beside success and failure, and the chart on request.
  await page.evaluate(() => localStorage.setItem('lang', 'id'));
  await signInFast(page, DEMO.admin);
  await page.goto('/');
  const today = (await (await page.request.get('/api/admin/messagelog/today-count', { headers: adminHeaders })).json()) as { success: number; fail: number; delivered: number; read: number };
  expect(today.delivered).toBeGreaterThan(0);
  // The spec's eight tiles stay; today's outcomes are a card of their own, in the rows' words.
  await expect(page.locator('[data-testid^="tile-"]')).toHaveCount(8);
  const card = page.getByRole('group', { name: 'Hasil Kirim Hari Ini' });
  for (const [label, value] of [['Terkirim', today.success], ['Diterima', today.delivered], ['Dibaca', today.read], ['Gagal', today.fail]] as const) {
    // The engine may have sent more since the call: the figure is at least what it answered.
    await expect.poll(async () => Number((await card.getByRole('group', { name: label, exact: true }).innerText()).replace(/\D/g, ''))).toBeGreaterThanOrEqual(value);
  }
  const chart = page.getByRole('img', { name: 'Blast per Hari (14 hari)' });
  await expect(chart.getByTestId('daily-chart')).toBeVisible();
  await expect(chart.locator('rect[data-series="delivered"]')).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Tampilkan diterima dan dibaca' }).check();
  await expect(chart.locator('rect[data-series="delivered"]')).toHaveCount(14);
  await expect(chart.locator('rect[data-series="read"]')).toHaveCount(14);
  await expect(chart).toHaveAccessibleDescription(/^14 hari terakhir: [\d.]+ berhasil, [\d.]+ diterima, [\d.]+ dibaca, [\d.]+ gagal\.$/);
});
