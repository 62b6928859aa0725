import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Numbers of the simulated network, registered on WhatsApp or not, added to the phone list by this run. */
async function addNumbers(request: APIRequestContext, token: string, registered: boolean, count: number): Promise<string[]> {
  const res = await request.get(`/api/sim/numbers?registered=${registered}&limit=400`);
  const pool = ((await res.json()) as { numbers: Array<{ number: string; name: string }> }).numbers;
  const out: string[] = [];
  for (let i = Date.now() % pool.length; out.length < count; i = (i + 1) % pool.length) {
    const n = pool[i]!;
    const saved = await request.post('/api/admin/phonenumber/save', { headers: auth(token), data: { number: n.number, name: n.name || 'Tanpa Nama' } });
    if (saved.ok()) out.push(n.number);
  }
  return out;
}

async function pick(page: Page, text: string): Promise<void> {
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
  await page.keyboard.press('Escape');
}

test('a partly failed Blaster send says how many were delivered and lists the failed numbers with their reasons', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const [good] = await addNumbers(page.request, token, true, 1);
  const bad = await addNumbers(page.request, token, false, 2);
  const list = ((await (await page.request.get('/api/admin/whatsapp/list', { headers: auth(token) })).json()) as {
    list: Array<{ clientid: string; phonenumber: string; state: string }>;
  }).list;
  const sender = list.find((a) => a.state === 'connected')!;

  await page.goto('/blaster');
  await page.getByRole('combobox', { name: 'Choose Sender' }).fill(sender.phonenumber);
  await pick(page, `${sender.clientid} - ${sender.phonenumber}`);
  await page.getByRole('textbox', { name: 'Message' }).fill('Halo {name}');
  const receivers = page.getByRole('combobox', { name: 'Choose Receivers' });
  for (const n of [good!, ...bad]) {
    await receivers.click();
    await receivers.fill(n);
    await pick(page, n);
  }
  await page.getByRole('button', { name: 'Kirim' }).click();

  const dialog = page.getByRole('dialog', { name: 'Terkirim!' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Pesan blaster berhasil dikirim ke target.')).toBeVisible();
  await expect(dialog.getByText('Terkirim ke 1 dari 3 nomor; 2 nomor gagal:')).toBeVisible();
  const failed = dialog.getByRole('list', { name: 'Nomor gagal' }).getByRole('listitem');
  await expect(failed).toHaveCount(2);
  for (const n of bad) await expect(failed.filter({ hasText: n })).toContainText(`${n}: Tidak terdaftar di WhatsApp`);
  await expect(dialog.getByRole('list', { name: 'Nomor gagal' })).not.toContainText(good!);
});
