import { and, eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TWO_FACTOR_LIMIT } from '../../server/src/auth/limiter';
import { resetTwoFactorByEmail } from '../../server/src/auth/twofactor';
import { auditLog, recoveryCodes, users } from '../../server/src/db/schema';
import { decryptSecret } from '../../server/src/lib/secrets';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

let n = 0;
const addr = () => `198.19.0.${++n % 250}`;
/** A code of the next 30-second step: never the step the set-up or a previous sign-in used. */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

const login = (app: TestApp, email: string, password = 'password123') => app.http.post('/api/auth/login').set('X-Forwarded-For', addr()).send({ email, password });

/** Turns two-factor on for a user through the API; returns the secret, the recovery codes and the new token. */
async function enrol(app: TestApp, user: TestUser) {
  const setup = await app.http.post('/api/auth/2fa/setup').set(user.auth).send({});
  expect(setup.status).toBe(200);
  const secret = setup.body.secret as string;
  const enabled = await app.http.post('/api/auth/2fa/enable').set(user.auth).send({ code: await generate({ secret }) });
  expect(enabled.status).toBe(200);
  return { secret, codes: enabled.body.recovery_codes as string[], token: enabled.body.token as string };
}

describe('turning two-factor on from the profile', () => {
  it('gives a secret and its otpauth:// address, stored encrypted under the secret key, and refuses a wrong code', async () => {
    const u = await t.user('member');
    const setup = await t.http.post('/api/auth/2fa/setup').set(u.auth).send({});
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(setup.body.uri).toBe(`otpauth://totp/Blast%20Console:${encodeURIComponent(u.row.email)}?secret=${setup.body.secret}&issuer=Blast%20Console`);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, u.id));
    expect(row!.totpSecret).not.toContain(setup.body.secret);
    expect(decryptSecret(t.ctx.config.secretKey, row!.totpSecret!)).toBe(setup.body.secret);
    expect(row!.totpEnabledAt).toBeNull();

    const wrong = await t.http.post('/api/auth/2fa/enable').set(u.auth).send({ code: '000000' === (await generate({ secret: setup.body.secret })) ? '111111' : '000000' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ code: 'two_factor_code_invalid', errors: { code: 'The code is not correct.' } });
    const empty = await t.http.post('/api/auth/2fa/enable').set(u.auth).send({});
    expect(empty.body).toMatchObject({ code: 'two_factor_code_required' });
    expect((await t.http.get('/api/auth/2fa').set(u.auth)).body).toEqual({ enabled: false, required: false, recovery_codes_left: 0 });
  });

  it('turns on with a right code: ten different recovery codes shown once and kept hashed, other sessions end, audited', async () => {
    const u = await t.user('member');
    const { codes, token } = await enrol(t, u);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await t.ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, u.id));
    expect(stored).toHaveLength(10);
    for (const s of stored) expect(codes.some((c) => s.codeHash.includes(c.replace('-', '')))).toBe(false);
    // The old token has ended; the new one works.
    expect((await t.http.get('/api/auth/2fa').set(u.auth)).status).toBe(401);
    const status = await t.http.get('/api/auth/2fa').set({ Authorization: `Bearer ${token}` });
    expect(status.body).toEqual({ enabled: true, required: false, recovery_codes_left: 10 });
    // Never shown again: a second set-up is refused while it is on.
    expect((await t.http.post('/api/auth/2fa/setup').set({ Authorization: `Bearer ${token}` }).send({})).body).toMatchObject({ code: 'two_factor_already_on' });
    const audit = await t.ctx.db.select().from(auditLog).where(and(eq(auditLog.targetUserId, u.id), eq(auditLog.action, '2fa.enable')));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actorId).toBe(u.id);
  });
});

describe('signing in with two-factor on', () => {
  it('asks for the code after the password; a right code signs in, the same code never twice', async () => {
    const u = await t.user('member');
    const { secret } = await enrol(t, u);
    const first = await login(t, u.row.email);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ two_factor: 'code', challenge: expect.any(String) });
    expect(first.body.token).toBeUndefined();
    // The challenge is no session token.
    expect((await t.http.get('/api/auth/2fa').set({ Authorization: `Bearer ${first.body.challenge}` })).status).toBe(401);

    const wrong = await t.http.post('/api/auth/2fa/verify').send({ challenge: first.body.challenge, code: '12345' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('two_factor_code_invalid');
    const code = await nextCode(secret);
    const ok = await t.http.post('/api/auth/2fa/verify').send({ challenge: first.body.challenge, code });
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(u.id);
    expect((await t.http.get('/api/auth/2fa').set({ Authorization: `Bearer ${ok.body.token}` })).body.enabled).toBe(true);
    const again = await login(t, u.row.email);
    expect((await t.http.post('/api/auth/2fa/verify').send({ challenge: again.body.challenge, code })).status).toBe(401);
  });

  it('takes each recovery code once, in any case and with or without its dash', async () => {
    const u = await t.user('member');
    const { codes } = await enrol(t, u);
    const challenge = (await login(t, u.row.email)).body.challenge as string;
    const ok = await t.http.post('/api/auth/2fa/verify').send({ challenge, code: codes[3]!.toUpperCase().replace('-', ' ') });
    expect(ok.status).toBe(200);
    expect(ok.body.recovery_code_used).toBe(true);
    expect((await t.http.post('/api/auth/2fa/verify').send({ challenge, code: codes[3] })).status).toBe(401);
    expect((await t.http.get('/api/auth/2fa').set({ Authorization: `Bearer ${ok.body.token}` })).body.recovery_codes_left).toBe(9);
  });

  it(`refuses a forged or stale challenge, and allows ${TWO_FACTOR_LIMIT} wrong codes per account in 15 minutes`, async () => {
    const u = await t.user('member');
    const { secret } = await enrol(t, u);
    const forged = await t.http.post('/api/auth/2fa/verify').send({ challenge: 'a.b.c', code: '123456' });
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe('two_factor_challenge_expired');
    const challenge = (await login(t, u.row.email)).body.challenge as string;
    const statuses = [];
    for (let i = 0; i < TWO_FACTOR_LIMIT + 2; i++) statuses.push((await t.http.post('/api/auth/2fa/verify').set('X-Forwarded-For', addr()).send({ challenge, code: '999999' })).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(TWO_FACTOR_LIMIT);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    // Held even with the right code, until the window passes.
    expect((await t.http.post('/api/auth/2fa/verify').send({ challenge, code: await nextCode(secret) })).status).toBe(429);
  });

  it('turns off with the password only: sessions end, audited, the next sign-in needs no code', async () => {
    const u = await t.user('member');
    const { token } = await enrol(t, u);
    const auth = { Authorization: `Bearer ${token}` };
    const wrong = await t.http.post('/api/auth/2fa/disable').set(auth).send({ password: 'not-it' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ code: 'password_incorrect' });
    const off = await t.http.post('/api/auth/2fa/disable').set(auth).send({ password: 'password123' });
    expect(off.status).toBe(200);
    expect((await t.http.get('/api/auth/2fa').set(auth)).status).toBe(401);
    expect((await t.http.get('/api/auth/2fa').set({ Authorization: `Bearer ${off.body.token}` })).body).toEqual({ enabled: false, required: false, recovery_codes_left: 0 });
    expect(await t.ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, u.id))).toHaveLength(0);
    expect((await login(t, u.row.email)).body.token).toEqual(expect.any(String));
    expect(await t.ctx.db.select().from(auditLog).where(and(eq(auditLog.targetUserId, u.id), eq(auditLog.action, '2fa.disable')))).toHaveLength(1);
  });
});

describe('REQUIRE_2FA=admin,dev', () => {
  it('sends an admin without two-factor to the set-up, and opens nothing else until it is done', async () => {
    const own = await startTestApp({ require2fa: ['admin', 'dev'] });
    try {
      const admin = await own.user('admin');
      const member = await own.user('member');
      const signIn = await own.http.post('/api/auth/login').send({ email: admin.row.email, password: 'password123' });
      expect(signIn.body).toMatchObject({ two_factor: 'setup', token: expect.any(String), user: { id: admin.id } });
      const enrolOnly = { Authorization: `Bearer ${signIn.body.token}` };
      const refused = await own.http.get('/api/admin/setting/get').set(enrolOnly);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('two_factor_setup_required');
      // Nor a live connection.
      const socket = own.socket(signIn.body.token);
      await expect(new Promise((resolve, reject) => (socket.once('connect', () => resolve(true)), socket.once('connect_error', reject)))).rejects.toBeDefined();
      expect((await own.http.post('/api/auth/validate').send({ token: signIn.body.token })).body.isvalid).toBe(true);
      expect((await own.http.get('/api/auth/2fa').set(enrolOnly)).body).toEqual({ enabled: false, required: true, recovery_codes_left: 0 });

      const { token } = await enrol(own, { ...admin, auth: enrolOnly });
      const full = { Authorization: `Bearer ${token}` };
      expect((await own.http.get('/api/admin/setting/get').set(full)).status).toBe(200);
      // The set-up token ended with it; the role may not turn it off.
      expect((await own.http.get('/api/admin/setting/get').set(enrolOnly)).status).toBe(401);
      const off = await own.http.post('/api/auth/2fa/disable').set(full).send({ password: 'password123' });
      expect(off.status).toBe(403);
      expect(off.body.code).toBe('two_factor_required_role');
      // Other roles sign in as before.
      expect((await own.http.post('/api/auth/login').send({ email: member.row.email, password: 'password123' })).body.two_factor).toBeUndefined();
    } finally {
      await own.close();
    }
  });
});

describe('user:create --reset-2fa', () => {
  it('removes two-factor, its recovery codes and the sessions, audited with no actor', async () => {
    const u = await t.user('admin');
    const { token } = await enrol(t, u);
    const row = await resetTwoFactorByEmail(t.ctx.db, u.row.email.toUpperCase());
    expect(row?.id).toBe(u.id);
    expect(row?.totpSecret).toBeNull();
    expect(row?.totpEnabledAt).toBeNull();
    expect(await t.ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, u.id))).toHaveLength(0);
    expect((await t.http.get('/api/auth/2fa').set({ Authorization: `Bearer ${token}` })).status).toBe(401);
    const audit = await t.ctx.db.select().from(auditLog).where(and(eq(auditLog.targetUserId, u.id), eq(auditLog.action, '2fa.reset')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: null, details: { via: 'user:create --reset-2fa' } });
    expect((await login(t, u.row.email)).body.token).toEqual(expect.any(String));
    expect(await resetTwoFactorByEmail(t.ctx.db, 'nobody@test.local')).toBeNull();
  });
});
