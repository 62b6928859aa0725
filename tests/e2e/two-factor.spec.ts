import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServerProcess } from '../server-process';
import { generate } from 'otplib';
import { DEMO, signInFast } from './helpers';

/** A member of its own, so the demo accounts the other files sign in with keep signing in without a code. */
async function newMember(page: Page, name: string): Promise<string> {
  const email = `${name}-${Date.now()}@e2e.test`;
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Dua', lastName: 'Langkah', email, password: 'password123', password2: 'password123', agreeToTerms: true },
  });
  expect(res.status()).toBe(201);
  return email;
}

test('a member turns on two-factor from the profile and then signs in with a code', async ({ page }) => {
  const email = await newMember(page, 'totp');
  await signInFast(page, email, 'password123');
  await page.goto('/profile');
  const card = page.getByTestId('two-factor-card');
  await expect(card.getByText('Tidak aktif')).toBeVisible();
  await card.getByRole('button', { name: 'Aktifkan' }).click();

  const dialog = page.getByRole('dialog', { name: 'Aktifkan verifikasi dua langkah' });
  await expect(dialog.getByLabel('Kode QR untuk aplikasi autentikator')).toBeVisible();
  const secret = (await dialog.getByTestId('two-factor-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  // A wrong code is refused in the screen's language.
  await dialog.getByLabel('Kode dari aplikasi').fill((await generate({ secret })) === '000000' ? '111111' : '000000');
  await dialog.getByRole('button', { name: 'Konfirmasi' }).click();
  await expect(dialog.getByText('Kode tidak benar.')).toBeVisible();
  await dialog.getByLabel('Kode dari aplikasi').fill(await generate({ secret }));
  await dialog.getByRole('button', { name: 'Konfirmasi' }).click();

  const codes = dialog.getByRole('list', { name: 'Kode pemulihan' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.first().innerText()).trim();
  await dialog.getByRole('button', { name: 'Sudah saya simpan' }).click();
  await expect(card.getByText('Aktif', { exact: true })).toBeVisible();
  await expect(card.getByText('Sisa kode pemulihan: 10')).toBeVisible();
  // The session goes on with the token the change gave (the old one ended): the profile still loads.
  await page.reload();
  await expect(page.getByTestId('profile-card')).toContainText(email);

  // Signing in again asks for the code after the password.
  await page.context().clearCookies();
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('password123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Verifikasi Dua Langkah' })).toBeVisible();
  await page.getByLabel('Kode autentikasi').fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await page.getByRole('button', { name: 'Verifikasi' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // A recovery code works in its place, once.
  await page.context().clearCookies();
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('password123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Kode autentikasi').fill(recovery);
  await page.getByRole('button', { name: 'Verifikasi' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an admin closes sign-up in Pengaturan and /signup says so in the visitor\'s language', async ({ page, browser }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/settings');
  const field = page.getByLabel('Pendaftaran');
  await expect(field).toBeVisible();
  await field.click({ force: true });
  await page.locator('.ant-select-item-option', { hasText: 'Ditutup' }).click();
  await page.getByRole('button', { name: 'Simpan' }).click();
  await expect(page.getByText('Pengaturan berhasil disimpan.').or(page.getByText('Settings saved.')).first()).toBeVisible();

  try {
    const visitor = await browser.newContext({ baseURL: page.url().replace(/\/settings$/, '') });
    const anon = await visitor.newPage();
    await anon.goto('/signup');
    await expect(anon.getByText('Pendaftaran ditutup')).toBeVisible();
    await expect(anon.getByText('Saat ini akun baru tidak dapat dibuat di sini.', { exact: false })).toBeVisible();
    await expect(anon.getByRole('button', { name: 'Sign Up' })).toHaveCount(0);
    await expect(anon.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
    await anon.getByTestId('language-switch').getByRole('button', { name: 'English' }).click();
    await expect(anon.getByText('Sign-up is closed')).toBeVisible();
    await visitor.close();
  } finally {
    // Open again for the other files of this run.
    const setting = (await (await page.request.get('/api/admin/setting/get', { headers: await bearer(page) })).json()) as { setting: Record<string, unknown> };
    const res = await page.request.put('/api/admin/setting/update', { headers: await bearer(page), data: { ...setting.setting, signup_mode: 'open' } });
    expect(res.ok()).toBeTruthy();
  }
});

async function bearer(page: Page): Promise<Record<string, string>> {
  const token = (await page.context().cookies()).find((c) => c.name === 'authToken')?.value ?? '';
  return { Authorization: `Bearer ${token}` };
}

test('with REQUIRE_2FA=admin an admin is sent to set up two-factor at sign-in, then reaches the console', async ({ page }) => {
  // A server of its own with the variable set (the shared one runs without it), on this run's next port.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-e2e-2fa-'));
  const children: ChildProcess[] = [];
  try {
    const port = String(Number(process.env.E2E_PORT ?? 3199) + 1);
    const server = await startServerProcess(dir, { PORT: port, DEMO: '1', REQUIRE_2FA: 'admin', CLIENT_DIST: path.resolve('dist/client'), LOG_LEVEL: 'warn' }, children, 60_000, 'built');
    const base = `http://localhost:${server.port}`;
    await page.goto(`${base}/signin`);
    await page.getByLabel('Email').fill(DEMO.admin);
    await page.getByLabel('Password', { exact: true }).fill('demo12345');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/two-factor\/setup$/);
    await expect(page.getByRole('heading', { name: 'Atur Verifikasi Dua Langkah' })).toBeVisible();
    // The console stays shut until it is done: its screens send the sign-in back here.
    await page.goto(`${base}/settings`);
    await expect(page).toHaveURL(/\/two-factor\/setup$/);
    const secret = (await page.getByTestId('two-factor-secret').innerText()).trim();
    await page.getByLabel('Kode dari aplikasi').fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Konfirmasi' }).click();
    await expect(page.getByRole('list', { name: 'Kode pemulihan' }).getByRole('listitem')).toHaveCount(10);
    await page.getByRole('button', { name: 'Sudah saya simpan' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto(`${base}/settings`);
    await expect(page.getByLabel('Pendaftaran')).toBeVisible();
  } finally {
    for (const c of children) c.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
