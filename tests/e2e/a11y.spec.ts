import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, signInFast } from './helpers';

/**
 * The screens issues 13 and 30 name, with the role that sees each one; /level, /member and /profile show the
 * level tags, /blaster and /bonus/create antd's required Selects and a multi-select's placeholder.
 */
const SCREENS: { who: string; paths: string[] }[] = [
  { who: DEMO.admin, paths: ['/dashboard', '/phonenumber', '/phonenumber/create', '/phonenumber/optout', '/message/create', '/settings', '/level', '/member', '/blaster', '/bonus/create'] },
  { who: DEMO.member, paths: ['/dashboard', '/whatsapp', '/withdraw', '/profile'] },
];

async function seriousViolations(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
  // Let lists and charts finish loading so axe sees the screen a person sees.
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning, .page-spin')).toHaveCount(0);
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${path} ${v.id}: ${v.nodes.map((n) => n.target.join(' ') + (process.env.A11Y_DEBUG ? ` [${n.any.map((c) => c.message).join('; ')}]` : '')).join(', ')}`);
}

for (const lang of ['id', 'en'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    for (const { who, paths } of SCREENS) {
      test(`${who.split('@')[0]} screens have no serious or critical accessibility violations (${theme}, ${lang})`, async ({ page }) => {
        // Ten screens, each waiting for its lists and charts: more than the default minute on a busy machine.
        test.setTimeout(150_000);
        await page.addInitScript(([t, l]) => (localStorage.setItem('theme', t), localStorage.setItem('lang', l)), [theme, lang] as const);
        await signInFast(page, who);
        const bad: string[] = [];
        for (const path of paths) bad.push(...(await seriousViolations(page, path)));
        expect(bad).toEqual([]);
      });
    }
  }
}

test('the sign-in password toggle is a target of at least 24 × 24 px, and the field keeps its height', async ({ page }) => {
  await page.goto('/signin');
  const field = page.getByLabel('Password', { exact: true });
  const before = (await field.locator('xpath=ancestor::span[contains(@class, "auth-input-affix")]').boundingBox())!;
  const toggle = page.getByRole('button', { name: 'Tampilkan password' });
  const box = (await toggle.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(24);
  expect(box.height).toBeGreaterThanOrEqual(24);
  // The field is as tall as the e-mail field above it.
  const email = (await page.locator('input[name="email"]').boundingBox())!;
  expect(Math.abs(before.height - email.height)).toBeLessThanOrEqual(1);
  await toggle.click();
  await expect(field).toHaveAttribute('type', 'text');
});

test('the keyboard leaves the caption editor with Tab and Shift+Tab instead of typing a tab into it', async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/message/create');
  // Until first used the caption is a look-alike of the editor, a labelled text box; reached by keyboard it loads
  // the editor and hands it the focus.
  await page.getByRole('textbox', { name: 'Caption' }).focus();
  const editor = page.locator('.ql-editor[contenteditable="true"]');
  await expect(editor).toBeFocused();
  // The editor keeps the name: a screen reader hears the same field.
  await expect(page.getByRole('textbox', { name: 'Caption' })).toHaveAttribute('contenteditable', 'true');
  await page.keyboard.type('Halo');
  await page.keyboard.press('Tab');
  await expect(editor).not.toBeFocused();
  await expect(editor).toHaveText('Halo');
  await editor.click();
  await page.keyboard.press('Shift+Tab');
  await expect(editor).not.toBeFocused();
  await expect(editor).toHaveText('Halo');
});

test("the user menu's Edit profile opens the profile dialog from the keyboard", async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/dashboard');
  await page.getByTestId('user-menu').focus();
  await page.keyboard.press('Enter');
  const entry = page.getByRole('menuitem', { name: 'Edit profile' });
  await expect(entry).toBeVisible();
  await entry.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/profile\?edit=true$/);
  await expect(page.getByRole('dialog', { name: 'Edit Profil' })).toBeVisible();
  // antd's own texts follow the language: the referral code's copy button is 'Salin', not 'Copy'.
  await expect(page.getByRole('button', { name: 'Salin' })).toBeVisible();
});

test('choosing a language by keyboard keeps focus on the language switch', async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'English' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'English' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Indonesia' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Indonesia' })).toBeFocused();
});

test('after a row is deleted, focus goes to the next row’s Delete, then the previous row’s, not to the page', async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const tag = Date.now() % 90_000;
  const names = [`Fokus A ${tag}`, `Fokus B ${tag}`];
  for (const [i, name] of names.entries()) {
    const res = await page.request.post('/api/admin/level/create', {
      headers: { Authorization: `Bearer ${token}` },
      data: { name, blast_fee: 10, requirement_blast: 800_000 + tag * 2 + i },
    });
    expect(res.ok()).toBeTruthy();
  }
  await page.goto('/level');
  const deleteOf = (name: string) => page.getByRole('row', { name: new RegExp(name) }).getByRole('button', { name: 'Delete' });
  // The keyboard's way: Enter on Delete, Enter on the dialog's 'Hapus'.
  await deleteOf(names[0]!).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Hapus' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('row', { name: new RegExp(names[0]!) })).toHaveCount(0);
  await expect(deleteOf(names[1]!)).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // The last row: the one before it.
  const beforeName = await deleteOf(names[1]!).evaluate((b) => b.closest('tr')?.previousElementSibling?.querySelector('td')?.textContent?.trim() ?? '');
  expect(beforeName).not.toBe('');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Hapus' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('row', { name: new RegExp(names[1]!) })).toHaveCount(0);
  await expect(deleteOf(beforeName)).toBeFocused();
});

test('after accepting a withdrawal by keyboard, focus comes back to the row’s Batalkan, not to the page', async ({ page }) => {
  const admin = await signInFast(page, DEMO.admin);
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const email = `fokus${stamp}@a11y.test`;
  const registered = await page.request.post('/api/auth/register', {
    data: { firstName: 'Fokus', lastName: `Uji${stamp}`, email, password: 'rahasia123', password2: 'rahasia123', referral_code: '', agreeToTerms: true },
  });
  expect(registered.status()).toBe(201);
  const memberId = ((await registered.json()) as { user: { id: number } }).user.id;
  const bonus = await page.request.post('/api/admin/bonus/create', { headers: { Authorization: `Bearer ${admin.token}` }, data: { userId: memberId, nominal: 50000, reason: 'Modal uji' } });
  expect(bonus.status()).toBe(201);
  const login = await page.request.post('/api/auth/login', { data: { email, password: 'rahasia123' } });
  const member = { Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  expect((await page.request.put(`/api/admin/users/${memberId}`, { headers: member, data: { account_bank: 'BCA', account_number: '123123', account_name: 'Fokus' } })).status()).toBe(200);
  expect((await page.request.post('/api/admin/withdraw/request', { headers: member, data: { nominal: 20000 } })).status()).toBe(201);

  await page.goto('/withdraw/requested');
  const row = page.getByRole('row', { name: new RegExp(`Uji${stamp}`) });
  await row.getByRole('button', { name: 'Terima' }).focus();
  await page.keyboard.press('Enter');
  const ok = page.getByRole('dialog').getByRole('button', { name: 'OK' });
  await expect(ok).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(row).toContainText('Diterima');
  await expect(row.getByRole('button', { name: 'Batalkan' })).toBeFocused();
});

test('the password show/hide toggles are buttons the keyboard reaches, named in the screen’s language', async ({ page }) => {
  await page.goto('/signup');
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('rahasia123');
  await password.press('Tab');
  const show = page.getByRole('button', { name: 'Tampilkan password' }).first();
  await expect(show).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(password).toHaveAttribute('type', 'text');
  await expect(page.getByRole('button', { name: 'Sembunyikan password' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('button', { name: 'Show password' })).toHaveCount(2);

  await page.goto('/signin');
  await page.getByLabel('Password', { exact: true }).press('Tab');
  await expect(page.getByRole('button', { name: 'Show password' })).toBeFocused();

  await page.addInitScript(() => localStorage.setItem('lang', 'id'));
  await signInFast(page, DEMO.admin);
  await page.goto('/profile?edit=true');
  const dialog = page.getByRole('dialog', { name: 'Edit Profil' });
  await dialog.getByPlaceholder('Ganti Password ?').press('Tab');
  await expect(dialog.getByRole('button', { name: 'Tampilkan password' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByPlaceholder('Ganti Password ?')).toHaveAttribute('type', 'text');
});

/** The focused element's ring (outline, or an input's shadow ring) against the colour behind it. */
async function focusRingContrast(page: Page): Promise<number> {
  return page.evaluate(() => {
    const parse = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number) as number[];
    const over = (fg: number[], bg: number[]) => {
      const a = fg[3] ?? 1;
      return [0, 1, 2].map((i) => fg[i]! * a + bg[i]! * (1 - a));
    };
    const lum = (rgb: number[]) => {
      const [r, g, b] = rgb.map((v) => {
        const s = v / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const el = document.activeElement as HTMLElement;
    const holder = (el.closest('.ant-input-affix-wrapper, .ant-select, .ant-input-number') as HTMLElement | null) ?? el;
    const style = getComputedStyle(holder);
    const ringEl = el.closest('.ant-menu-item') ?? el;
    const ringStyle = getComputedStyle(ringEl);
    const ring = ringStyle.outlineStyle !== 'none' && parseFloat(ringStyle.outlineWidth) >= 2 ? ringStyle.outlineColor : (style.boxShadow.match(/rgba?\([^)]*\)/)?.[0] ?? 'rgba(0, 0, 0, 0)');
    let bg = [255, 255, 255];
    const layers: number[][] = [];
    for (let n: Element | null = holder.parentElement; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if ((c[3] ?? 1) > 0) layers.unshift(c);
      if ((c[3] ?? 1) === 1) break;
    }
    for (const layer of layers) bg = over(layer, bg);
    const [hi, lo] = [lum(over(parse(ring), bg)), lum(bg)].sort((x, y) => y - x) as [number, number];
    return (hi + 0.05) / (lo + 0.05);
  });
}

test('the focus ring reads at 3:1 or more in the dark theme: buttons, links, inputs, menu entries', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await signInFast(page, DEMO.admin);
  await page.goto('/proxy');
  await expect(page.getByRole('button', { name: 'Delete' }).first()).toBeVisible();
  const targets = [
    page.getByRole('button', { name: 'Export CSV' }),
    page.getByRole('button', { name: 'Delete' }).first(),
    page.getByRole('link', { name: 'Edit' }).first(),
    page.getByRole('link', { name: 'Daftar Member' }),
    page.getByPlaceholder(/Cari menu/),
  ];
  for (const target of targets) {
    // Focus by keyboard, as :focus-visible needs.
    await target.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(target).toBeFocused();
    // Polled: antd's focus transition takes a moment.
    const what = await target.evaluate((e) => e.outerHTML.slice(0, 80));
    await expect.poll(() => focusRingContrast(page), { message: what }).toBeGreaterThanOrEqual(3);
  }
});

test('accessible names are the visible words, without icon names, in the screen’s language', async ({ page }) => {
  await signInFast(page, DEMO.admin);
  await page.goto('/member');
  await expect(page.getByRole('menuitem', { name: 'Daftar Member', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cari', exact: true })).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
  const snapshot = await page.locator('body').ariaSnapshot();
  // antd's icons are named 'team', 'dashboard', 'check-circle'…; none is part of a name or an image of its own.
  expect(snapshot).not.toMatch(/(menuitem|button|link) "[a-z]+(-[a-z]+)* [A-Z]/);
  expect(snapshot).not.toMatch(/img "[a-z]+(-[a-z]+)*"/);

  // The modal's close button speaks the screen's language.
  await page.goto('/profile?edit=true');
  await expect(page.getByRole('dialog', { name: 'Edit Profil' }).getByRole('button', { name: 'Tutup', exact: true })).toBeVisible();
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.goto('/profile?edit=true');
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true })).toBeVisible();
});

test("'Aktif' and the referral link's 'Salin' are Indonesian on Indonesian screens", async ({ page }) => {
  const { token } = await signInFast(page, DEMO.admin);
  const listed = await page.request.get('/api/admin/proxy/list-per-page?page=1', { headers: { Authorization: `Bearer ${token}` } });
  const proxy = ((await listed.json()) as { data: Array<{ id: number }> }).data[0]!;
  await page.goto(`/proxy/edit?id=${proxy.id}`);
  await expect(page.getByRole('switch', { name: 'Aktif' })).toBeVisible();
  await page.context().clearCookies();
  await signInFast(page, DEMO.member);
  await page.goto('/referral');
  await expect(page.getByRole('button', { name: 'Salin', exact: true })).toBeVisible();
});
