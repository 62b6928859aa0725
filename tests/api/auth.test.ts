import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../helpers';
import { one } from '../../server/src/db/raw';
import { users } from '../../server/src/db/schema';
import { signToken } from '../../server/src/auth/jwt';
import { sessionFingerprint } from '../../server/src/auth/middleware';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const validBody = (over: Record<string, unknown> = {}) => ({
  firstName: 'Ani',
  lastName: 'Wijaya',
  email: `ani${Math.random().toString(36).slice(2)}@test.local`,
  password: 'rahasia123',
  password2: 'rahasia123',
  referral_code: '',
  agreeToTerms: true,
  ...over,
});

describe('register', () => {
  it('creates a member and answers token, user and msg without the password hash', async () => {
    const res = await t.http.post('/api/auth/register').send(validBody());
    expect(res.status).toBe(201);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.user.role).toBe('member');
    expect(res.body.msg).toBeTruthy();
    expect(JSON.stringify(res.body)).not.toMatch(/password_hash|passwordHash|scrypt\$/);
  });

  it('answers field errors with the spec messages for missing fields', async () => {
    const res = await t.http.post('/api/auth/register').send({});
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject({
      firstName: 'First name is required.',
      lastName: 'Last name is required.',
      email: 'Email is required.',
      password: 'Password is required.',
      password2: 'Please confirm your password.',
      agreeToTerms: 'You must agree to the terms and conditions.',
    });
  });

  it('refuses mismatched passwords, short passwords, bad emails, used emails, unknown referral codes', async () => {
    const mismatch = await t.http.post('/api/auth/register').send(validBody({ password2: 'other12345' }));
    expect(mismatch.body.errors.password2).toBe('Passwords do not match.');
    const short = await t.http.post('/api/auth/register').send(validBody({ password: 'short', password2: 'short' }));
    expect(short.body.errors.password).toMatch(/at least 8/);
    const bad = await t.http.post('/api/auth/register').send(validBody({ email: 'not-an-email' }));
    expect(bad.body.errors.email).toMatch(/valid email/);
    const first = validBody();
    await t.http.post('/api/auth/register').send(first).expect(201);
    const again = await t.http.post('/api/auth/register').send({ ...first });
    expect(again.status).toBe(422);
    expect(again.body.errors.email).toMatch(/already/);
    const ref = await t.http.post('/api/auth/register').send(validBody({ referral_code: 'NOPE0000' }));
    expect(ref.body.errors.referral_code).toMatch(/not found/);
    const terms = await t.http.post('/api/auth/register').send(validBody({ agreeToTerms: false }));
    expect(terms.body.msg).toBe('You must agree to the terms and conditions.');
  });

  it('links the new member to the referrer whose code was given', async () => {
    const referrer = await t.user('member');
    const res = await t.http.post('/api/auth/register').send(validBody({ referral_code: referrer.row.referralCode.toLowerCase() }));
    expect(res.status).toBe(201);
    expect(res.body.user.referred_by).toBe(referrer.id);
  });

  it("refuses another role's code: only members refer", async () => {
    for (const role of ['admin', 'dev', 'staff'] as const) {
      const other = await t.user(role);
      const res = await t.http.post('/api/auth/register').send(validBody({ referral_code: other.row.referralCode }));
      expect(res.status).toBe(422);
      expect(res.body.errors.referral_code).toBe('Referral code not found.');
    }
  });
});

describe('login and validate', () => {
  it('signs in with the right password and refuses a wrong one with a msg', async () => {
    const u = await t.user('member');
    const ok = await t.http.post('/api/auth/login').send({ email: u.row.email, password: 'password123' });
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(u.id);
    expect(ok.body.token).toBeTruthy();
    const bad = await t.http.post('/api/auth/login').send({ email: u.row.email, password: 'wrong-pass' });
    expect(bad.status).toBe(401);
    expect(bad.body.msg).toBe('Invalid email or password');
    const empty = await t.http.post('/api/auth/login').send({ email: '', password: '' });
    expect(empty.body.msg).toBe('Email and password are required.');
  });

  it('limits sign-in failures to 10 per email and IP in 15 minutes', async () => {
    const u = await t.user('member');
    for (let i = 0; i < 10; i++) {
      await t.http.post('/api/auth/login').send({ email: u.row.email, password: 'nope-nope' }).expect(401);
    }
    const locked = await t.http.post('/api/auth/login').send({ email: u.row.email, password: 'password123' });
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toMatch(/Too many/);
  });

  it('validate answers isvalid for good, garbage and expired tokens', async () => {
    const u = await t.user('admin');
    expect((await t.http.post('/api/auth/validate').send({ token: u.token })).body).toEqual({ isvalid: true });
    expect((await t.http.post('/api/auth/validate').send({ token: 'garbage' })).body).toEqual({ isvalid: false });
    expect((await t.http.post('/api/auth/validate').send({})).body).toEqual({ isvalid: false });
    const expired = await signToken(
      t.ctx.config.jwtSecret,
      { sub: u.id, role: 'admin', fp: sessionFingerprint(u.row.passwordHash, 0) },
      -10,
    );
    expect((await t.http.post('/api/auth/validate').send({ token: expired })).body).toEqual({ isvalid: false });
    const call = await t.http.get('/api/admin/users/members').set('Authorization', `Bearer ${expired}`);
    expect(call.status).toBe(401);
  });

  it('a token with "Keep me logged in" lives longer than one without', async () => {
    const u = await t.user('member');
    const short = await t.http.post('/api/auth/login').send({ email: u.row.email, password: 'password123' });
    const long = await t.http.post('/api/auth/login').send({ email: u.row.email, password: 'password123', remember: true });
    const exp = (tok: string) => JSON.parse(Buffer.from(tok.split('.')[1]!, 'base64url').toString()).exp as number;
    expect(exp(long.body.token)).toBeGreaterThan(exp(short.body.token) + 86400);
  });

  it('a password change ends the sessions of old tokens', async () => {
    const u = await t.user('member');
    const res = await t.http.put(`/api/admin/users/${u.id}`).set(u.auth).send({ password: 'newpassword1' });
    expect(res.status).toBe(200);
    expect(res.body.token).toBeTruthy();
    expect((await t.http.post('/api/auth/validate').send({ token: u.token })).body.isvalid).toBe(false);
    expect((await t.http.get(`/api/admin/users/${u.id}`).set(u.auth)).status).toBe(401);
    expect((await t.http.get(`/api/admin/users/${u.id}`).set('Authorization', `Bearer ${res.body.token}`)).status).toBe(200);
    const login = await t.http.post('/api/auth/login').send({ email: u.row.email, password: 'newpassword1' });
    expect(login.status).toBe(200);
  });

  it('missing token answers 401 with the spec message', async () => {
    const res = await t.http.get('/api/admin/users/1');
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe('Authorization token is missing');
  });

  it('stores no plain password', async () => {
    const u = await t.user('member');
    const row = (await one(t.ctx.db.select().from(users).where(eq(users.id, u.id))))!;
    expect(row.passwordHash).not.toContain('password123');
    expect(row.passwordHash.startsWith('scrypt$')).toBe(true);
  });
});
