import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, pressInDialog, recordListShapes, signInFast } from './helpers';

/** A fresh member of our own, signed in, so these tests never change the demo members' rows. */
async function freshMember(page: Page): Promise<{ id: number; token: string }> {
  const email = `wa${Date.now()}${Math.floor(Math.random() * 1000)}@e2e.test`;
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Wahyu', lastName: 'Tester', email, password: 'rahasia123', password2: 'rahasia123', referral_code: '', agreeToTerms: true },
  });
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as { token: string; user: { id: number } };
  await page.context().addCookies([
    { name: 'authToken', value: body.token, domain: 'localhost', path: '/' },
    { name: 'user', value: encodeURIComponent(JSON.stringify(body.user)), domain: 'localhost', path: '/' },
  ]);
  return { id: body.user.id, token: body.token };
}

/** Links an account through the calls the console makes, for tests about the list. */
async function linkViaApi(request: APIRequestContext, token: string, phonenumber: string, pushname: string) {
  const headers = { Authorization: `Bearer ${token}` };
  const deviceId = `id-${Date.now()}-${Math.floor(Math.random() * 10000)}`;
  await request.post('/api/admin/whatsapp/new-client', { headers, data: { deviceId } });
  const qr = (await (await request.get(`/api/admin/whatsapp/qr-new-client/${deviceId}`, { headers })).json()) as { qr: string };
  await request.post('/api/sim/scan', { data: { qr: qr.qr, phonenumber, pushname } });
  const message = (await (await request.get(`/api/admin/whatsapp/listen-message-created/${deviceId}`, { headers })).json()) as { message: object };
  const saved = await request.post('/api/admin/whatsapp/save', { headers, data: message.message });
  expect(saved.ok()).toBeTruthy();
  return ((await saved.json()) as { whatsapp: { id: number; deviceId: string } }).whatsapp;
}

const row = (page: Page, text: string) => page.locator('tr', { hasText: text });

test('a member links an account by QR with the /sim page in a second tab and sees it Connected', async ({ page, context }) => {
  await freshMember(page);
  await page.goto('/whatsapp');
  await expect(page.getByText('Kosong')).toBeVisible();
  await page.getByRole('button', { name: 'Tambah' }).click();
  await expect(page).toHaveURL(/\/whatsapp\/create$/);
  await expect(page.getByLabel('WhatsApp ID')).toHaveValue(/^id-\d+-\d{1,4}$/);
  await page.getByRole('button', { name: 'Generate QR Code' }).click();
  await expect(page.getByTestId('qr-image')).toBeVisible();
  await expect(page.getByText(/Berlaku \d+ detik/)).toBeVisible();

  const [sim] = await Promise.all([context.waitForEvent('page'), page.getByTestId('sim-link').click()]);
  await sim.waitForLoadState();
  await expect(sim.getByLabel('QR', { exact: true })).not.toHaveValue('');
  await sim.getByLabel('Nomor telepon (opsional)').fill('6281344400001');
  await sim.getByLabel('Push name (opsional)').fill('Toko Wahyu QR');
  await sim.getByRole('button', { name: 'Scan' }).click();

  await expect(page).toHaveURL(/\/whatsapp$/);
  await expect(row(page, 'Toko Wahyu QR').getByTestId('wa-state')).toHaveText('Connected');
  await expect(row(page, 'Toko Wahyu QR')).toContainText('6281344400001');
});

test('a member links an account with a pairing code', async ({ page, context }) => {
  await freshMember(page);
  await page.goto('/whatsapp');
  await page.getByRole('button', { name: 'Tambah' }).click();
  await page.getByText('Login dengan Nomor').click();
  await expect(page.getByLabel('Nomor WhatsApp')).toHaveValue('62');
  await expect(page.getByLabel('Nomor WhatsApp')).toHaveAttribute('placeholder', '6281xxxxxxx');
  await page.getByLabel('Nomor WhatsApp').fill('6281344400002');
  await page.getByRole('button', { name: 'Generate Pairing Code' }).click();
  await expect(page.getByTestId('pairing-code')).toHaveText(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);

  const [sim] = await Promise.all([context.waitForEvent('page'), page.getByTestId('sim-link').click()]);
  await expect(sim.getByLabel('Kode pairing')).toHaveValue(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  await expect(sim.getByLabel('Nomor telepon', { exact: true })).toHaveValue('6281344400002');
  await sim.getByRole('button', { name: 'Tautkan' }).click();

  await expect(page).toHaveURL(/\/whatsapp$/);
  await expect(row(page, '6281344400002').getByTestId('wa-state')).toHaveText('Connected');
});

test('an expired QR offers a new one', async ({ page }) => {
  await freshMember(page);
  await page.clock.install();
  await page.goto('/whatsapp/create');
  await page.getByRole('button', { name: 'Generate QR Code' }).click();
  const image = page.getByTestId('qr-image');
  await expect(image).toBeVisible();
  const first = await image.getAttribute('data-qr');
  await page.clock.fastForward('01:01');
  await expect(page.getByText('QR Code sudah kedaluwarsa.')).toBeVisible();
  await expect(image).toHaveCount(0);
  await page.getByRole('button', { name: 'Generate QR Code' }).click();
  await expect(image).toBeVisible();
  await expect(image).not.toHaveAttribute('data-qr', first ?? '');
});

test('forcing Disconnected on /sim turns the row within 1 s without reload; Reconnect leads to create?r=', async ({ page, context }) => {
  const me = await freshMember(page);
  const account = await linkViaApi(page.request, me.token, '6281344400003', 'Toko Putus');
  await page.goto('/whatsapp');
  const state = row(page, 'Toko Putus').getByTestId('wa-state');
  await expect(state).toHaveText('Connected');
  await expect(row(page, 'Toko Putus').getByRole('button', { name: 'Reconnect' })).toHaveCount(0);

  const sim = await context.newPage();
  await sim.goto('/sim');
  await sim.getByTestId(`sim-device-${account.deviceId}`).getByRole('button', { name: 'Disconnect' }).click();
  await expect(state).toHaveText('Disconnected', { timeout: 1000 });

  await row(page, 'Toko Putus').getByRole('button', { name: 'Reconnect' }).click();
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText('Warning!');
  await pressInDialog(page, 'Ya, Reonnect.');
  await expect(page).toHaveURL(new RegExp(`/whatsapp/create\\?r=${account.id}$`));
  await expect(page.getByText('Sambungkan ulang: Toko Putus (6281344400003)')).toBeVisible();
});

test('a conflict reconnects in place from the list', async ({ page }) => {
  const me = await freshMember(page);
  const account = await linkViaApi(page.request, me.token, '6281344400004', 'Toko Konflik');
  await page.request.post('/api/sim/connection', { data: { deviceId: account.deviceId, state: 'conflict' } });
  const headers = { Authorization: `Bearer ${me.token}` };
  await expect
    .poll(async () => ((await (await page.request.get(`/api/admin/whatsapp/${account.id}`, { headers })).json()) as { whatsapp: { state: string } }).whatsapp.state)
    .toBe('conflict');
  await page.goto('/whatsapp');
  await expect(row(page, 'Toko Konflik').getByTestId('wa-state')).toHaveText('Conflict');
  await row(page, 'Toko Konflik').getByRole('button', { name: 'Reconnect' }).click();
  await pressInDialog(page, 'Ya, Reonnect.');
  await expect(row(page, 'Toko Konflik').getByTestId('wa-state')).toHaveText('Connected');
  await expect(page).toHaveURL(/\/whatsapp$/);
});

test('reset asks first, then zeroes the row', async ({ page }) => {
  const me = await freshMember(page);
  await linkViaApi(page.request, me.token, '6281344400005', 'Toko Reset');
  await page.goto('/whatsapp');
  await row(page, 'Toko Reset').getByRole('button', { name: 'Reset' }).click();
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText('Apakah Anda yakin ?');
  await pressInDialog(page, 'Batal');
  await row(page, 'Toko Reset').getByRole('button', { name: 'Reset' }).click();
  await pressInDialog(page, 'Ya, Reset.');
  await expect(page.locator('.ant-modal-confirm-title')).toHaveCount(0);
  await expect(row(page, 'Toko Reset')).toContainText('Rp 0');
});

test('admin opens /member/whatsapp?id= and sees that member\'s accounts, read-only Sending and Activated', async ({ page }) => {
  const admin = await signInFast(page, DEMO.admin);
  const members = (await (await page.request.get('/api/admin/users/members', { headers: { Authorization: `Bearer ${admin.token}` } })).json()) as {
    users: Array<{ id: number; email: string }>;
  };
  const budi = members.users.find((u) => u.email === DEMO.member)!;
  await page.goto(`/member/whatsapp?id=${budi.id}`);
  await expect(page.getByRole('heading', { name: 'Daftar Whatsapp' })).toBeVisible();
  await expect(row(page, 'Budi Toko Online')).toBeVisible();
  // Counters carry the thousands separator the dashboards use (1.150), however far a blast has taken them.
  await expect(row(page, 'Budi Toko Online').getByRole('cell').nth(2)).toHaveText(/^\d{1,3}(\.\d{3})+$/);
  await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(6);
  await expect(page.getByRole('columnheader', { name: 'Sending' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Action' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Tambah' })).toHaveCount(0);
  await expect(row(page, 'Budi Cadangan').getByTestId('wa-state')).toHaveText('Suspended (1x)');
  await expect(row(page, 'Budi Cadangan').getByRole('button', { name: 'Activated' })).toBeVisible();

  await page.getByLabel('Filter Status').first().click();
  await page.getByTitle('Logged Out').click();
  await expect(page).toHaveURL(/s=loggedOut/);
  await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(1);
  await expect(row(page, 'Budi Lama')).toBeVisible();
});

test('dashboard tiles show the seeded figures, cached for the next visit', async ({ page }) => {
  const budi = await signInFast(page, DEMO.member);
  const get = async (path: string) => (await (await page.request.get(`/api/${path}`, { headers: { Authorization: `Bearer ${budi.token}` } })).json()) as Record<string, number>;
  const counts = await get(`admin/whatsapp/count/${budi.user.id}`);
  const logs = await get(`admin/messagelog/count/${budi.user.id}`);
  const bonus = await get(`admin/bonus/total/${budi.user.id}`);
  expect(counts.connectedCount).toBeGreaterThan(0);
  expect(logs.successCount).toBeGreaterThan(0);

  await page.goto('/');
  await expect(page.getByText('Halo, Budi!')).toBeVisible();
  // Other tests may change the announcement: the banner shows whatever the settings hold now.
  const { setting } = (await (await page.request.get('/api/admin/setting/get', { headers: { Authorization: `Bearer ${budi.token}` } })).json()) as { setting: { info: string } };
  await expect(page.getByTestId('info-banner')).toContainText(setting.info);
  const tile = (key: string) => page.getByTestId(`tile-${key}`);
  const id = (n: number) => n.toLocaleString('id-ID');
  await expect(tile('connected')).toContainText(id(counts.connectedCount!));
  await expect(tile('disconnected')).toContainText(id(counts.disconnectedCount!));
  await expect(tile('success')).toContainText(id(logs.successCount!));
  await expect(tile('fail')).toContainText(id(logs.failCount!));
  await expect(tile('bonus')).toContainText(`Rp ${id(bonus.totalBonus!)}`);
  await expect(page.locator('[data-testid^="tile-"]')).toHaveCount(7);

  // Next visit: the cached figures show while the calls have not answered.
  await page.route('**/api/admin/**', () => undefined);
  await page.reload();
  await expect(tile('success')).toContainText(id(logs.successCount!));

  await page.unroute('**/api/admin/**');
  await page.context().clearCookies();
  const admin = await signInFast(page, DEMO.admin);
  const adminGet = async (path: string) => (await (await page.request.get(`/api/${path}`, { headers: { Authorization: `Bearer ${admin.token}` } })).json()) as Record<string, number>;
  const total = await adminGet('admin/messagelog/total-count');
  const all = await adminGet('admin/whatsapp/count/all');
  await page.goto('/');
  await expect(page.locator('[data-testid^="tile-"]')).toHaveCount(8);
  await expect(tile('connected')).toContainText(id(all.connectedCount!));
  await expect(tile('total')).toContainText(id(total.success!));
  await expect(page.getByTestId('total-fail')).toContainText(id(total.fail!));
});

test('the list draws its role\'s columns and buttons from the first render, for a member and for an admin', async ({ page }) => {
  const shapes = await recordListShapes(page);
  const member = await freshMember(page);
  await linkViaApi(page.request, member.token, '6281344400077', 'Toko Sekali Gambar');
  await page.goto('/whatsapp');
  await expect(row(page, 'Toko Sekali Gambar')).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Action' })).toBeVisible();
  expect(await shapes()).toEqual(['Akun | Client ID | Berhasil | Gagal | Hari Ini | Total Pendapatan | Status | Action / Tambah: yes']);

  await page.context().clearCookies();
  const admin = await signInFast(page, DEMO.admin);
  const members = (await (await page.request.get('/api/admin/users/members', { headers: { Authorization: `Bearer ${admin.token}` } })).json()) as {
    users: Array<{ id: number; email: string }>;
  };
  await page.goto(`/member/whatsapp?id=${members.users.find((u) => u.email === DEMO.member)!.id}`);
  await expect(row(page, 'Budi Toko Online')).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Sending' })).toBeVisible();
  expect(await shapes()).toEqual(['Akun | Client ID | Berhasil | Gagal | Hari Ini | Total Pendapatan | Status | Sending / Tambah: no']);
});
