import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

/** Links an account for the signed-in user through the calls the console makes and the simulated phone. */
async function linkAccount(request: APIRequestContext, token: string, phonenumber: string) {
  const headers = { Authorization: `Bearer ${token}` };
  const deviceId = `id-${Date.now()}-${Math.floor(Math.random() * 10000)}`;
  await request.post('/api/admin/whatsapp/new-client', { headers, data: { deviceId } });
  const qr = (await (await request.get(`/api/admin/whatsapp/qr-new-client/${deviceId}`, { headers })).json()) as { qr: string };
  await request.post('/api/sim/scan', { data: { qr: qr.qr, phonenumber, pushname: 'Monitor Test' } });
  const message = (await (await request.get(`/api/admin/whatsapp/listen-message-created/${deviceId}`, { headers })).json()) as { message: object };
  const saved = await request.post('/api/admin/whatsapp/save', { headers, data: message.message });
  expect(saved.ok()).toBeTruthy();
  return ((await saved.json()) as { whatsapp: { id: number; clientid: string } }).whatsapp;
}

test('dev watches a device on /monitor/realtime and sees a yellow connection.update line after a disconnect on /sim', async ({ page, context }) => {
  const { token } = await signInFast(page, DEMO.dev);
  const account = await linkAccount(page.request, token, '6281399900077');
  await page.goto(`/monitor/realtime?id=${account.clientid}`);
  await expect(page.getByRole('heading', { name: new RegExp(`Monitor Realtime — ${account.clientid}`) })).toBeVisible();
  // Let the live connection open before the event happens.
  await page.waitForTimeout(500);

  const sim = await context.newPage();
  await sim.goto('/sim');
  await sim.getByTestId(`sim-device-${account.clientid}`).getByRole('button', { name: 'Disconnect' }).click();

  const line = page.locator('[data-testid="realtime-line"][data-event="connection.update"]').first();
  await expect(line).toBeVisible();
  await expect(line).toContainText('state: disconnected');
  await expect(line).toContainText('reconnect: 0 times');
  await expect(line).toHaveCSS('border-left-color', 'rgb(250, 219, 20)');

  // The phone comes back: the gateway reconnect is counted and shown with the unit 'times'.
  await sim.getByTestId(`sim-device-${account.clientid}`).getByRole('button', { name: 'Connect', exact: true }).click();
  const back = page.locator('[data-testid="realtime-line"][data-event="connection.update"]').filter({ hasText: 'state: connected' }).first();
  await expect(back).toContainText('reconnect: 1 times');

  // The same events are kept for the socket view, newest first.
  await page.goto(`/monitor/socket?id=${account.clientid}&type=0`);
  await expect(page.getByTestId('json-string')).toContainText('connection.update');
});

test('/monitor/local is an array of entries; type=2 shows a tree that collapses more than 50 entries into ranges', async ({ page }) => {
  await signInFast(page, DEMO.dev);
  // 55 devices waiting to be linked (5 for each of 11 new members) make the local view's `linking` list longer than 50.
  for (let m = 0; m < 11; m++) {
    const email = `mon${Date.now()}${m}@e2e.test`;
    const reg = await page.request.post('/api/auth/register', {
      data: { firstName: 'Mon', lastName: 'Itor', email, password: 'rahasia123', password2: 'rahasia123', referral_code: '', agreeToTerms: true },
    });
    const headers = { Authorization: `Bearer ${((await reg.json()) as { token: string }).token}` };
    for (let i = 0; i < 5; i++) {
      const res = await page.request.post('/api/admin/whatsapp/new-client', { headers, data: { deviceId: `id-${Date.now()}-${m * 10 + i}` } });
      expect(res.ok()).toBeTruthy();
    }
  }
  // The local view is an array of entries: the process, one per account, one per device being linked.
  await page.goto('/monitor/local?type=2');
  await expect(page.getByTestId('json-tree')).toBeVisible();
  const root = page.getByTestId('json-node').first();
  await expect(root).toContainText(/^▾Array\(\d+\)/);
  const ranges = root.getByTestId('json-range');
  await expect(ranges.first()).toContainText('[0 … 49]');
  await expect(ranges.nth(1)).toContainText('[50 …');
  await ranges.first().getByRole('button').click();
  await expect(ranges.first().getByTestId('json-node').first()).toContainText('type: "process"');

  await page.goto('/monitor/local?type=string');
  await expect(page.getByTestId('json-string')).toContainText('"uptimeSeconds"');
  await expect(page.getByTestId('json-string')).toContainText('"type": "linking"');
  await page.goto('/monitor/local?type=1');
  await expect(page.getByTestId('json-viewer')).toContainText('"type": "session"');
  await expect(page.getByTestId('json-viewer')).toContainText('"reconnectTime"');
});

test('admin opening a monitor page lands on /not-authorized', async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/monitor/local');
  await expect(page).toHaveURL(/\/not-authorized$/);
});
