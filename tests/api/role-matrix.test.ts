import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../common/api-routes';
import { ROLES, type Role } from '../../common/roles';
import { ROLE_DENIED } from '../../server/src/auth/middleware';
import { issueToken } from '../../server/src/auth/service';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

let t: TestApp;
const users = {} as Record<Role, TestUser>;

beforeAll(async () => {
  t = await startTestApp();
  for (const role of ROLES) users[role] = await t.user(role);
});
afterAll(() => t.close());

/** Path parameters become the caller's own id, so ownership never hides a role decision. */
function concrete(path: string, userId: number): string {
  return path.replace(/:(id|userId)\b/g, String(userId)).replace(/:deviceId\b/g, 'device-none');
}

async function call(method: string, path: string, token?: string): Promise<{ status: number; msg?: string } | 'timeout'> {
  const m = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  let req = t.http[m](`/api${path}`).timeout(3000);
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  if (m === 'post' || m === 'put') req = req.send({});
  try {
    const res = await req;
    return { status: res.status, msg: (res.body as { msg?: string })?.msg };
  } catch (err) {
    if (err instanceof Error && /timeout/i.test(err.message)) return 'timeout';
    throw err;
  }
}

describe('the API role table is enforced on every call', () => {
  for (const route of API_ROUTES) {
    it(`${route.method} ${route.path}`, async () => {
      if (route.access === 'public') {
        const res = await call(route.method, concrete(route.path, 1));
        // Meta's webhook has no sign-in but its own signature: unsigned, it refuses for that, never for a token.
        if (res !== 'timeout' && route.path.startsWith('/webhooks/')) expect(res.msg ?? '').not.toMatch(/token/i);
        else if (res !== 'timeout') expect(res.status).not.toBe(401);
        return;
      }
      const anonymous = await call(route.method, concrete(route.path, 1));
      expect(anonymous).not.toBe('timeout');
      expect(anonymous !== 'timeout' && anonymous.status).toBe(401);
      for (const role of ROLES) {
        const u = users[role];
        // Signing out ends the token it is called with: give it a token of its own.
        const token = route.path === '/auth/logout' ? await issueToken(t.ctx, u.row, false) : u.token;
        const res = await call(route.method, concrete(route.path, u.id), token);
        if (route.access.includes(role)) {
          // Allowed: the call reaches its handler (which may still refuse the body or the row).
          if (res === 'timeout') continue;
          expect(res.status, `${role} should pass the role check`).not.toBe(401);
          expect(res.msg, `${role} should pass the role check`).not.toBe(ROLE_DENIED);
          expect(res.status, 'every listed call has a handler').not.toBe(501);
        } else {
          expect(res, `${role} must be refused`).toEqual({ status: 403, msg: ROLE_DENIED });
        }
      }
    });
  }

  it('an unknown API path answers 404 JSON', async () => {
    const res = await t.http.get('/api/nope/nothing');
    expect(res.status).toBe(404);
    expect(res.body.msg).toBe('Unknown API route');
  });
});
