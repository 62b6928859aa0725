import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

interface Account {
  id: number;
  deviceId: string;
  clientid: string;
  phonenumber: string;
  pushname: string;
  state: string;
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Clicks the visible option of the open dropdown that shows this text. */
async function pick(page: Page, text: string): Promise<void> {
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
  await page.keyboard.press('Escape');
}

/** Registered numbers of the simulated network that this run adds as phone numbers of its own. */
async function newReceivers(request: APIRequestContext, token: string, count: number, salt: number): Promise<Array<{ id: number; number: string; name: string }>> {
  const res = await request.get('/api/sim/numbers?registered=true&limit=400');
  const pool = ((await res.json()) as { numbers: Array<{ number: string; name: string }> }).numbers;
  const out: Array<{ id: number; number: string; name: string }> = [];
  for (let i = (salt * 7) % pool.length; out.length < count; i = (i + 1) % pool.length) {
    const candidate = pool[i]!;
    const saved = await request.post('/api/admin/phonenumber/save', { headers: auth(token), data: { number: candidate.number, name: candidate.name } });
    if (!saved.ok()) continue; // already in the list from an earlier test
    const body = (await saved.json()) as { phoneNumber?: { id: number }; data?: { id: number }; id?: number };
    out.push({ id: body.phoneNumber?.id ?? body.data?.id ?? body.id ?? 0, number: candidate.number, name: candidate.name });
  }
  return out;
}

async function connectedSender(request: APIRequestContext, token: string): Promise<Account> {
  const res = await request.get('/api/admin/whatsapp/list', { headers: auth(token) });
  const list = ((await res.json()) as { list: Account[] }).list;
  const sender = list.find((a) => a.pushname === 'Rina Fashion' && a.state === 'connected') ?? list.find((a) => a.state === 'connected');
  expect(sender, 'a connected demo account').toBeTruthy();
  return sender!;
}

test('the Blaster sends to two receivers and shows Terkirim!', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const receivers = await newReceivers(page.request, token, 2, Date.now());
  const sender = await connectedSender(page.request, token);

  await page.goto('/blaster');
  await expect(page.getByRole('heading', { name: 'Blaster Whatsapp Message' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveAttribute('rows', '6');

  // The dropdowns load after a second.
  await page.getByRole('combobox', { name: 'Choose Sender' }).fill(sender.phonenumber);
  await pick(page, `${sender.clientid} - ${sender.phonenumber}`);
  await page.getByRole('textbox', { name: 'Message' }).fill('Halo {name}, ini pesan blaster.');
  const receiverBox = page.getByRole('combobox', { name: 'Choose Receivers' });
  await expect(page.getByRole('button', { name: 'Kirim' })).toBeEnabled();
  for (const r of receivers) {
    await receiverBox.click();
    await receiverBox.fill(r.number);
    await pick(page, r.number);
  }
  await page.getByRole('button', { name: 'Kirim' }).click();
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText('Terkirim!');
  await expect(page.getByText('Pesan blaster berhasil dikirim ke target.')).toBeVisible();

  for (const r of receivers) {
    const inbox = await page.request.get(`/api/sim/inbox/${r.number}`);
    const messages = ((await inbox.json()) as { messages: Array<{ text: string; from: string }> }).messages;
    expect(messages[0]).toMatchObject({ text: `Halo ${r.name}, ini pesan blaster.`, from: sender.phonenumber });
  }
});

test('a sender that is not connected is refused with Gagal!', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const res = await page.request.get('/api/admin/whatsapp/list', { headers: auth(token) });
  const down = ((await res.json()) as { list: Account[] }).list.find((a) => a.state === 'disconnected' && a.phonenumber);
  expect(down, 'the demo data has a disconnected account').toBeTruthy();
  const [receiver] = await newReceivers(page.request, token, 1, Date.now() + 3);

  await page.goto('/blaster');
  await page.getByRole('combobox', { name: 'Choose Sender' }).fill(down!.phonenumber);
  await pick(page, `${down!.clientid} - ${down!.phonenumber}`);
  await page.getByRole('textbox', { name: 'Message' }).fill('Tidak terkirim');
  await page.getByRole('combobox', { name: 'Choose Receivers' }).click();
  await page.getByRole('combobox', { name: 'Choose Receivers' }).fill(receiver!.number);
  await pick(page, receiver!.number);
  await page.getByRole('button', { name: 'Kirim' }).click();
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText('Gagal!');
  await expect(page.getByText(`${down!.phonenumber} is DISCONNECTED`)).toBeVisible();
});

test('a receiver replying STOP on /sim turns nonactive on /phonenumber and is skipped afterwards', async ({ page, context }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const [receiver] = await newReceivers(page.request, token, 1, Date.now() + 11);
  const sender = await connectedSender(page.request, token);
  const sent = await page.request.post('/api/admin/whatsapp/send-message/1', {
    headers: auth(token),
    data: { senders: sender.phonenumber, targets: receiver!.number, message: 'Promo untuk {name}' },
  });
  expect(sent.ok()).toBeTruthy();

  // The admin watches the number on the phone-number list.
  const list = await context.newPage();
  await list.goto(`/phonenumber?search=${receiver!.number}`);
  const row = list.getByRole('row').filter({ hasText: receiver!.number });
  await expect(row).toBeVisible();
  await expect(row).not.toContainText('opted out');

  // The receiver's phone: read the inbox and reply STOP to the account.
  await page.goto('/sim');
  await page.getByLabel('Nomor kotak masuk').fill(receiver!.number);
  await expect(page.getByText(`Promo untuk ${receiver!.name}`, { exact: true })).toBeVisible();
  await page.getByRole('combobox', { name: 'Balas ke akun' }).click();
  await pick(page, `${sender.pushname} (${sender.phonenumber})`);
  await page.getByLabel('Balasan').fill('STOP');
  await page.getByRole('button', { name: 'Balas' }).click();

  // The list row turns nonactive without a reload.
  await expect(row).toContainText('berhenti berlangganan: Balasan STOP');
  const res = await page.request.get(`/api/admin/phonenumber/${receiver!.id}`, { headers: auth(token) });
  expect(((await res.json()) as { phoneNumber: { status: string } }).phoneNumber.status).toBe('nonactive');

  // The Blaster now skips it.
  const again = await page.request.post('/api/admin/whatsapp/send-message/1', {
    headers: auth(token),
    data: { senders: sender.phonenumber, targets: receiver!.number, message: 'Lagi' },
  });
  expect(again.status()).toBe(422);
});
