import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../server/src/db/schema';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

let t: TestApp;
let admin: TestUser;
let referrer: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  referrer = await t.user('member');
});
afterAll(() => t.close());

let n = 0;
const form = (extra: Record<string, unknown> = {}) => ({
  firstName: 'Daftar',
  lastName: String(++n),
  email: `daftar-mode-${n}@test.local`,
  password: 'password123',
  password2: 'password123',
  agreeToTerms: true,
  ...extra,
});

async function setMode(mode: string) {
  const current = (await t.http.get('/api/admin/setting/get').set(admin.auth)).body.setting;
  return t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...current, signup_mode: mode });
}

describe("'Pendaftaran': who may sign up", () => {
  it('is open by default on the demo and in development, referral only on a production install', async () => {
    expect((await t.http.get('/api/config')).body.signupMode).toBe('open');
    expect((await t.http.get('/api/admin/setting/get').set(admin.auth)).body.setting.signup_mode).toBe('open');
    for (const [config, mode] of [
      [{ production: true, demo: false }, 'referral'],
      [{ production: true, demo: true }, 'open'],
    ] as const) {
      const own = await startTestApp(config);
      try {
        expect((await own.http.get('/api/config')).body.signupMode).toBe(mode);
        const refused = await own.http.post('/api/auth/register').send(form());
        if (mode === 'referral') expect(refused.body).toMatchObject({ code: 'referral_required', errors: { referral_code: 'A referral code is required to sign up.' } });
        else expect(refused.status).toBe(201);
      } finally {
        await own.close();
      }
    }
  });

  it('referral only: a form without a code is refused on its field; with a member\'s code it signs up', async () => {
    expect((await setMode('referral')).status).toBe(200);
    expect((await t.http.get('/api/config')).body.signupMode).toBe('referral');
    const without = await t.http.post('/api/auth/register').send(form());
    expect(without.status).toBe(422);
    expect(without.body).toMatchObject({ code: 'referral_required', errors: { referral_code: 'A referral code is required to sign up.' } });
    const wrong = await t.http.post('/api/auth/register').send(form({ referral_code: 'NOPE0000' }));
    expect(wrong.body.errors.referral_code).toBe('Referral code not found.');
    const ok = await t.http.post('/api/auth/register').send(form({ referral_code: referrer.row.referralCode }));
    expect(ok.status).toBe(201);
    expect(ok.body.user.referred_by).toBe(referrer.id);
  });

  it('closed: every form is refused and no account is made; the change is audited', async () => {
    expect((await setMode('closed')).body.setting.signup_mode).toBe('closed');
    const body = form({ referral_code: referrer.row.referralCode });
    const refused = await t.http.post('/api/auth/register').send(body);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ msg: 'Sign-up is closed.', code: 'signup_closed' });
    expect(await t.ctx.db.select().from(users).where(eq(users.email, body.email))).toHaveLength(0);
    const rows = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'settings.update'));
    const changes = rows.map((r) => (r.details as Record<string, unknown>).signup_mode).filter(Boolean);
    expect(changes).toEqual([
      { from: 'open', to: 'referral' },
      { from: 'referral', to: 'closed' },
    ]);
    expect(rows.every((r) => r.actorId === admin.id)).toBe(true);
    expect((await setMode('open')).status).toBe(200);
    expect((await t.http.post('/api/auth/register').send(form())).status).toBe(201);
  });

  it('takes only the three modes, and only from admin and dev', async () => {
    const bad = await setMode('sometimes');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'signup_mode_invalid', errors: { signup_mode: 'Pendaftaran must be open, referral or closed.' } });
    const staff = await t.user('staff');
    const current = (await t.http.get('/api/admin/setting/get').set(admin.auth)).body.setting;
    expect((await t.http.put('/api/admin/setting/update').set(staff.auth).send({ ...current, signup_mode: 'closed' })).status).toBe(403);
    // A save without the field (an older console) keeps the stored mode.
    await setMode('referral');
    const { signup_mode: _dropped, ...rest } = current as Record<string, unknown>;
    expect((await t.http.put('/api/admin/setting/update').set(admin.auth).send(rest)).body.setting.signup_mode).toBe('referral');
    await setMode('open');
  });
});
