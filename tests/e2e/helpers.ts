import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'demo12345';
export const DEMO = {
  admin: 'admin@demo.test',
  dev: 'dev@demo.test',
  staff: 'staff@demo.test',
  member: 'member@demo.test',
  member2: 'member2@demo.test',
} as const;

/** Signs in through the form and waits to leave /signin. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/signin');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/signin/);
}

/** Signs in through the API and sets the cookies directly (faster, for tests about other screens). */
export async function signInFast(page: Page, email: string, password = DEMO_PASSWORD): Promise<{ token: string; user: { id: number; firstname: string } }> {
  const res = await page.request.post('/api/auth/login', { data: { email, password } });
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as { token: string; user: { id: number; firstname: string } };
  // Set for the address (a host-only cookie, path /), as the console's own sign-in stores them: a cookie
  // set with a domain would be another cookie of the same name beside the one the console writes later.
  const url = `http://localhost:${process.env.E2E_PORT ?? 3199}`;
  await page.context().addCookies([
    { name: 'authToken', value: body.token, url },
    { name: 'user', value: encodeURIComponent(JSON.stringify(body.user)), url },
  ]);
  return body;
}

/**
 * Presses a button of the open confirm dialog once its zoom-in animation is over (a click during the
 * animation can land beside the moving button).
 */
export async function pressInDialog(page: Page, name: string): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm');
  await expect(dialog).toBeVisible();
  await expect(page.locator('.ant-modal[class*="ant-zoom-"]')).toHaveCount(0);
  await dialog.getByRole('button', { name }).click();
}

/**
 * Every column set a list's header shows while the page opens, and whether 'Tambah' stood beside
 * it, recorded in the page as the DOM changes: a list that drew one column set before the access answer
 * came and then switched would record two.
 */
export async function recordListShapes(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const shapes: string[] = [];
    (window as unknown as { listShapes: string[] }).listShapes = shapes;
    const read = () => {
      const heads = [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent?.trim() ?? '').filter(Boolean);
      if (!heads.length) return;
      const add = [...document.querySelectorAll('a, button')].some((b) => b.textContent?.trim() === 'Tambah');
      const shape = `${heads.join(' | ')} / Tambah: ${add ? 'yes' : 'no'}`;
      if (shapes[shapes.length - 1] !== shape) shapes.push(shape);
    };
    new MutationObserver(read).observe(document, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { listShapes: string[] }).listShapes);
}
