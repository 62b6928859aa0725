import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const pad = (n: number) => String(n).padStart(2, '0');
/** 'HH:MM' in Jakarta, `hours` from now: a window starting there is closed now, whatever the hour the test runs at. */
const jakartaIn = (hours: number) => {
  const d = new Date(Date.now() + hours * 3600_000 + 7 * 3600_000);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
};

async function setting(request: APIRequestContext, token: string): Promise<Record<string, unknown>> {
  return ((await (await request.get('/api/admin/setting/get', { headers: auth(token) })).json()) as { setting: Record<string, unknown> }).setting;
}

test("'Jam Kirim' is set in the settings form, and a blast with nobody inside it waits with 'Menunggu jam kirim (HH:MM)'", async ({ page, browser }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const restore = async () => {
    await page.request.put('/api/admin/setting/update', { headers: auth(token), data: { ...(await setting(page.request, token)), send_from: '00:00', send_to: '00:00', time_zone: 'Asia/Jakarta' } });
  };
  const memberContext = await browser.newContext();
  try {
    await page.goto('/settings');
    const from = page.getByLabel('Jam Kirim dari');
    const to = page.getByLabel('Jam Kirim sampai');
    // The demo blasts at any hour.
    await expect(from).toHaveValue('00:00');
    await expect(to).toHaveValue('00:00');
    await expect(page.getByRole('combobox', { name: 'Zona Waktu' })).toBeVisible();

    await from.fill('8:0');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await expect(page.getByText('Jam Kirim harus berformat JJ:MM (00:00–23:59), mis. 08:00.')).toBeVisible();

    const opens = jakartaIn(2);
    await from.fill(opens);
    await to.fill(jakartaIn(3));
    await page.getByRole('button', { name: 'Simpan' }).click();
    await expect(page.getByText('Pengaturan berhasil disimpan.')).toBeVisible();
    expect(await setting(page.request, token)).toMatchObject({ send_from: opens, send_to: jakartaIn(3), time_zone: 'Asia/Jakarta' });

    // Fresh receivers, so the blast has numbers outside the cooldown whatever ran before.
    const res = await page.request.get('/api/sim/numbers?registered=true&limit=660');
    const numbers = ((await res.json()) as { numbers: Array<{ number: string; name: string }> }).numbers.slice(640);
    const csv = `number,name\n${numbers.map((n) => `${n.number},${n.name}`).join('\n')}\n`;
    const up = await page.request.post('/api/admin/phonenumber/import', { headers: auth(token), multipart: { file: { name: 'window.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) } } });
    expect(up.ok()).toBeTruthy();

    const member = await memberContext.newPage();
    await signInFast(member, DEMO.member);
    await member.goto('/whatsapp');
    const row = member.getByRole('row').filter({ hasText: 'Budi Toko Online' });
    await row.getByRole('button', { name: 'Start Blast' }).click();
    await expect(row.getByText(/^Menunggu jam kirim \(\d\d:\d\d\)$/)).toBeVisible({ timeout: 15_000 });
    await expect(row.getByRole('button', { name: 'Stop Blast' })).toBeVisible();

    await row.getByRole('button', { name: 'Stop Blast' }).click();
    const dialog = member.getByRole('dialog');
    if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Stop Blast!' }).click();
    await expect(row.getByRole('button', { name: 'Start Blast' })).toBeVisible();
  } finally {
    await restore();
    await memberContext.close();
  }
});
