import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../server/src/auth/service';
import { DEVICE_COOKIE } from '../../server/src/auth/device';
import { SIGN_IN_ACCOUNT_LIMIT, SIGN_IN_DEVICE_LIMIT, SIGN_IN_IP_LIMIT } from '../../server/src/auth/limiter';
import { startTestApp, type TestApp } from '../helpers';
import { redisUnreachable, REDIS, twoNodesOnRedis } from './cluster-fixtures';

/**
 * The sign-in limits (auth/limiter.ts) and the device cookie (auth/device.ts). The test app trusts the
 * loopback proxy (TRUST_PROXY's default), so X-Forwarded-For stands for the client's address.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

let n = 0;
const addr = () => `198.18.${Math.floor(++n / 250)}.${n % 250}`;

async function account() {
  const row = await createUser(t.ctx.db, { firstname: 'Ana', lastname: 'K', email: `ana-${++n}-${Date.now()}@test.local`, password: 'password123', role: 'member' });
  return row.email;
}

/** The device cookie a successful sign-in set (the `name=value` to send back). */
function deviceCookie(res: request.Response): string {
  const raw = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
  expect(raw, 'a successful sign-in sets the device cookie').toBeDefined();
  expect(raw).toMatch(/HttpOnly/i);
  expect(raw).toMatch(/SameSite=Strict/i);
  expect(raw).toMatch(/Path=\/api\/auth/);
  return raw!.split(';')[0]!;
}

const login = (http: ReturnType<typeof request>, email: string, password: string, from: string, cookie?: string) => {
  const call = http.post('/api/auth/login').set('X-Forwarded-For', from);
  if (cookie) call.set('Cookie', cookie);
  return call.send({ email, password });
};

describe('the per-account limit', () => {
  it('holds whatever address the guesses come from (8 X-Forwarded-For values × 12 guesses), with Retry-After', async () => {
    const email = await account();
    const answers = [];
    for (let round = 0; round < 12; round++) for (let a = 0; a < 8; a++) answers.push(await login(t.http, email, 'wrong-guess', `203.0.113.${a + 1}`));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_ACCOUNT_LIMIT);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(96 - SIGN_IN_ACCOUNT_LIMIT);
    expect(refused[0]!.body).toMatchObject({ code: 'sign_in_locked' });
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused[0]!.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // The right password from a fresh address, without the device cookie, waits too.
    expect((await login(t.http, email, 'password123', addr())).status).toBe(429);
  });

  it('counts unknown emails alike, so the answer tells nothing about which accounts exist', async () => {
    const statuses = [];
    for (let i = 0; i < SIGN_IN_ACCOUNT_LIMIT + 2; i++) statuses.push((await login(t.http, 'nobody-here@test.local', 'x-guess', addr())).status);
    expect(statuses.slice(0, SIGN_IN_ACCOUNT_LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(SIGN_IN_ACCOUNT_LIMIT)).toEqual([429, 429]);
  });
});

describe('the device cookie', () => {
  it("lets the owner's browser sign in while the account is locked by guesses from elsewhere", async () => {
    const email = await account();
    const ok = await login(t.http, email, 'password123', addr());
    expect(ok.status).toBe(200);
    const cookie = deviceCookie(ok);
    for (let i = 0; i < SIGN_IN_ACCOUNT_LIMIT + 3; i++) await login(t.http, email, 'wrong-guess', addr());
    expect((await login(t.http, email, 'password123', addr())).status).toBe(429);
    const owner = await login(t.http, email, 'password123', addr(), cookie);
    expect(owner.status).toBe(200);
    expect(owner.body.token).toEqual(expect.any(String));
    // Each complete sign-in renews the cookie.
    expect(deviceCookie(owner)).not.toBe(cookie);
  });

  it('has a limit of its own: a stolen cookie does not open unlimited guessing', async () => {
    const email = await account();
    const cookie = deviceCookie(await login(t.http, email, 'password123', addr()));
    const statuses = [];
    for (let i = 0; i < SIGN_IN_DEVICE_LIMIT + 2; i++) statuses.push((await login(t.http, email, 'wrong-guess', addr(), cookie)).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_DEVICE_LIMIT);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });

  it("is bound to its account: another account's cookie, or an altered one, gives no way past a lock", async () => {
    const mine = await account();
    const victim = await account();
    const cookie = deviceCookie(await login(t.http, mine, 'password123', addr()));
    for (let i = 0; i < SIGN_IN_ACCOUNT_LIMIT; i++) await login(t.http, victim, 'wrong-guess', addr());
    expect((await login(t.http, victim, 'password123', addr(), cookie)).status).toBe(429);
    const altered = cookie.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect((await login(t.http, victim, 'password123', addr(), altered)).status).toBe(429);
  });

  it('keeps a correct password from a trusted browser working behind an address locked by 100 failures (one office NAT)', async () => {
    const own = await startTestApp();
    try {
      const office = '192.0.2.77';
      const row = await createUser(own.ctx.db, { firstname: 'Kantor', lastname: 'A', email: 'kantor@test.local', password: 'password123', role: 'member' });
      const colleague = await createUser(own.ctx.db, { firstname: 'Kantor', lastname: 'B', email: 'kantor2@test.local', password: 'password123', role: 'member' });
      const cookie = deviceCookie(await login(own.http, row.email, 'password123', office));
      // Someone in the office (or behind its address) tries many emails.
      const spray = await Promise.all(Array.from({ length: SIGN_IN_IP_LIMIT + 5 }, (_, i) => login(own.http, `spray-${i}@test.local`, 'guess', office)));
      expect(spray.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(5);
      // Without a device cookie the address is locked, for a right password too…
      expect((await login(own.http, colleague.email, 'password123', office)).status).toBe(429);
      // …but a browser that signed in to its account before still signs in.
      expect((await login(own.http, row.email, 'password123', office, cookie)).status).toBe(200);
    } finally {
      await own.close();
    }
  });
});

const down = await redisUnreachable();
if (down) console.warn(`\n!!! Redis sign-in limit tests SKIPPED: ${REDIS} does not answer (${down}) !!!\n`);

describe.skipIf(down !== null)('limits across nodes (Redis)', () => {
  const cluster = twoNodesOnRedis('limits');

  it('counts one account\'s failures on both nodes together, and a device cookie from one node is honoured by the other', async () => {
    const [a, b] = cluster.nodes();
    const row = await createUser(cluster.db(), { firstname: 'Dua', lastname: 'Node', email: `dua-${cluster.prefix}@test.local`, password: 'password123', role: 'member' });
    const cookie = deviceCookie(await login(request(a.url), row.email, 'password123', addr()));
    const statuses = [];
    for (let i = 0; i < SIGN_IN_ACCOUNT_LIMIT + 4; i++) statuses.push((await login(request(i % 2 ? b.url : a.url), row.email, 'wrong-guess', addr())).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_ACCOUNT_LIMIT);
    expect((await login(request(b.url), row.email, 'password123', addr())).status).toBe(429);
    expect((await login(request(b.url), row.email, 'password123', addr(), cookie)).status).toBe(200);
  });
});
