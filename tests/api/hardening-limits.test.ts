import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, TEST_SIM_TOKEN } from '../../server/src/config';
import { transaction } from '../../server/src/db/client';
import { bonuses, users } from '../../server/src/db/schema';
import { balanceBigOf } from '../../server/src/money/balance';
import { MAX_BALANCE, MAX_BONUS, MAX_FEE, MAX_WITHDRAW } from '../../server/src/money/limits';
import { SIGN_IN_IP_LIMIT } from '../../server/src/auth/limiter';
import { FIELD_LABELS } from '../../common/errors';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

describe('the simulated phone is not a public control panel', () => {
  it('needs a signed-in admin or dev, or the SIM_TOKEN', async () => {
    expect((await t.http.get('/api/sim/devices')).status).toBe(401);
    expect((await t.http.post('/api/sim/revoke').send({ deviceId: 'x' })).status).toBe(401);
    expect((await t.http.post('/api/sim/connection').send({ deviceId: 'x', state: 'loggedOut' })).status).toBe(401);
    expect((await t.http.get('/api/sim/devices').set('X-Sim-Token', 'wrong-token-wrong-token')).status).toBe(401);
    const member = await t.user('member');
    expect((await t.http.get('/api/sim/devices').set(member.auth)).status).toBe(403);
    expect((await t.http.get('/api/sim/devices').set(admin.auth)).status).toBe(200);
    expect((await t.http.get('/api/sim/devices').set((await t.user('dev')).auth)).status).toBe(200);
    expect((await t.http.get('/api/sim/devices').set('X-Sim-Token', TEST_SIM_TOKEN)).status).toBe(200);
  });

  it('SIM_PUBLIC=true opens it to anyone', async () => {
    const open = await startTestApp({ simAccess: { token: null, public: true } });
    try {
      expect((await open.http.get('/api/sim/devices')).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('money has ceilings', () => {
  it('refuses amounts above their documented bound', async () => {
    const m = await t.user('member');
    const bonus = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 1e12, reason: 'x' });
    expect(bonus.status).toBe(422);
    expect(bonus.body.errors.nominal).toBe('Nominal paling besar Rp 1.000.000.000.');
    expect((await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: MAX_BONUS, reason: 'x' })).status).toBe(201);

    const fee = await t.http.put(`/api/admin/users/${m.id}`).set(admin.auth).send({ blast_fee: MAX_FEE + 1 });
    expect(fee.status).toBe(422);
    expect(fee.body.errors.blast_fee).toBeTruthy();
    const level = await t.http.post('/api/admin/level/create').set(admin.auth).send({ name: 'Mahal', blast_fee: MAX_FEE + 1, requirement_blast: 5 });
    expect(level.status).toBe(422);
    const current = (await t.http.get('/api/admin/setting/get').set(admin.auth)).body.setting;
    const price = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...current, info: 'Info', price: MAX_FEE + 1 });
    expect(price.status).toBe(422);
    expect(price.body.errors.price).toBe('Price paling besar Rp 1.000.000.');

    await t.ctx.db.update(users).set({ accountBank: 'BCA', accountNumber: '1', accountName: 'M' }).where(eq(users.id, m.id));
    const withdraw = await t.http.post('/api/admin/withdraw/request').set(m.auth).send({ nominal: MAX_WITHDRAW + 1 });
    expect(withdraw.status).toBe(422);
    expect(withdraw.body.errors.nominal).toBe('Nominal paling besar Rp 1.000.000.000.');
  });

  it('an amount past 2^53 (999999999999999999 typed) is refused for its size, not as a fraction', async () => {
    const huge = 999999999999999999; // the JSON number a form sends for it: 1e18, no longer a safe integer
    const m = await t.user('member');
    const bonus = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: huge, reason: 'x' });
    expect(bonus.status).toBe(422);
    expect(bonus.body.errors.nominal).toBe('Nominal paling besar Rp 1.000.000.000.');
    // Far below zero it is the lower bound that refuses it.
    const negative = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: -huge, reason: 'x' });
    expect(negative.body.errors.nominal).toBe('Nominal must be more than 0.');
    const fee = await t.http.put(`/api/admin/users/${m.id}`).set(admin.auth).send({ blast_fee: huge });
    expect(fee.status).toBe(422);
    expect(fee.body.errors.blast_fee).toMatch(/must be at most/);
    const level = await t.http.post('/api/admin/level/create').set(admin.auth).send({ name: 'Besar', blast_fee: huge, requirement_blast: 5 });
    expect(level.status).toBe(422);
    expect(level.body.errors.blast_fee).toBe(`${FIELD_LABELS.level_fee[0]} paling besar Rp 1.000.000.`);
    const current = (await t.http.get('/api/admin/setting/get').set(admin.auth)).body.setting;
    const settings = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...current, info: 'Info', price: huge, recipient_cooldown: huge });
    expect(settings.status).toBe(422);
    expect(settings.body.errors.price).toBe('Price paling besar Rp 1.000.000.');
    expect(settings.body.errors.recipient_cooldown).toBe('Recipient cooldown must be at most 8760 hours.');
    await t.ctx.db.update(users).set({ accountBank: 'BCA', accountNumber: '1', accountName: 'M' }).where(eq(users.id, m.id));
    const withdraw = await t.http.post('/api/admin/withdraw/request').set(m.auth).send({ nominal: String(huge) });
    expect(withdraw.status).toBe(422);
    expect(withdraw.body.errors.nominal).toBe('Nominal paling besar Rp 1.000.000.000.');
    const below = await t.http.post('/api/admin/withdraw/request').set(m.auth).send({ nominal: -huge });
    expect(below.body.errors.nominal).toBe('Minimal permintaan penarikan adalah Rp 10.000');
    // A fraction is still refused as one.
    const half = await t.http.post('/api/admin/withdraw/request').set(m.auth).send({ nominal: 10000.5 });
    expect(half.body.errors.nominal).toBe('Nominal harus bilangan bulat.');
  });

  it('no bonus takes a balance past the ceiling', async () => {
    const m = await t.user('member');
    await t.ctx.db.update(users).set({ income: MAX_BALANCE - 5 }).where(eq(users.id, m.id));
    const over = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 10, reason: 'x' });
    expect(over.status).toBe(422);
    expect(over.body.msg).toBe('Saldo member akan melewati batas Rp 1.000.000.000.000.000.');
    expect((await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 5, reason: 'x' })).status).toBe(201);
    expect((await t.http.get(`/api/admin/withdraw/balance/${m.id}`).set(admin.auth)).body.balance).toBe(MAX_BALANCE);
  });

  it('sums are exact integers even past 2^53 (old rows written before the ceiling)', async () => {
    const [m] = await t.ctx.db.insert(users).values({ firstname: 'Besar', email: 'besar@test.local', passwordHash: 'x', referralCode: 'BESAR001', income: 1 }).returning();
    const rows = Array.from({ length: 9102 }, () => ({ userId: m!.id, adminId: admin.id, nominal: 1e12, reason: 'lama' }));
    await transaction(t.ctx.db, async (tx) => {
      for (let i = 0; i < rows.length; i += 500) await tx.insert(bonuses).values(rows.slice(i, i + 500));
    });
    expect(await balanceBigOf(t.ctx.db, m!.id)).toBe(9_102_000_000_000_001n);
  });
});

describe('abuse limits', () => {
  it('300 parallel guesses for one email get at most 10 password checks; the rest 429', async () => {
    const victim = await t.user('member');
    const answers = await Promise.all(
      // From an address of its own (through the trusted loopback proxy), so its lockout holds no other test.
      Array.from({ length: 300 }, () => t.http.post('/api/auth/login').set('X-Forwarded-For', '198.51.100.7').send({ email: victim.row.email, password: 'guess-guess' })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(290);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });

  it('40 concurrent sign-ins do not stall other requests', async () => {
    const people = await Promise.all(Array.from({ length: 20 }, () => t.user('member')));
    // Warm the in-process test client's sign-in path first, so only the server is measured.
    expect((await t.http.post('/api/auth/login').send({ email: people[0]!.row.email, password: 'password123' })).status).toBe(200);
    const started = performance.now();
    const signIns = Promise.all(
      people.flatMap((p) => [0, 1].map(() => t.http.post('/api/auth/login').send({ email: p.row.email, password: 'password123' }))),
    );
    const waits: number[] = [];
    await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      expect((await t.http.get('/api/config')).status).toBe(200);
      waits.push(performance.now() - start);
    }
    const answers = await signIns;
    const allSignIns = performance.now() - started;
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // Hashes queue on the thread pool two at a time; a config call is answered between them, not
    // after the whole queue (a hash on the event loop would hold it until all 40 were done).
    expect(Math.max(...waits)).toBeLessThan(allSignIns / 3);
  });

  it('one address trying many emails is stopped after SIGN_IN_IP_LIMIT failures; another address still signs in', async () => {
    const own = await startTestApp();
    try {
      const admin = await own.user('admin');
      const answers = Promise.all(
        Array.from({ length: SIGN_IN_IP_LIMIT + 60 }, (_, i) => own.http.post('/api/auth/login').send({ email: `spray-${i}@test.local`, password: 'guess-guess' })),
      );
      const statuses = (await answers).map((a) => a.status);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(SIGN_IN_IP_LIMIT);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(60);
      // From another address (a trusted proxy's X-Forwarded-For), the admin still signs in.
      const ok = await own.http.post('/api/auth/login').set('X-Forwarded-For', '203.0.113.9').send({ email: admin.row.email, password: 'password123' });
      expect(ok.status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('one address creates at most SIGNUP_LIMIT accounts an hour (default 30); refused forms do not count', async () => {
    const own = await startTestApp();
    const SIGN_UP_IP_LIMIT = own.ctx.config.signUpLimit;
    expect(SIGN_UP_IP_LIMIT).toBe(loadConfig({ DATA_DIR: own.ctx.config.dataDir }).signUpLimit);
    try {
      const form = (i: number) => ({ firstName: 'Daftar', lastName: String(i), email: `daftar-${i}@test.local`, password: 'password123', password2: 'password123', agreeToTerms: true });
      // Refused forms first: they give their attempt back.
      for (let i = 0; i < 5; i++) expect((await own.http.post('/api/auth/register').send({ ...form(i), password2: 'other' })).status).toBe(422);
      const answers = await Promise.all(Array.from({ length: SIGN_UP_IP_LIMIT + 5 }, (_, i) => own.http.post('/api/auth/register').send(form(i))));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(SIGN_UP_IP_LIMIT);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(5);
      expect(refused[0]!.body).toMatchObject({ msg: 'Too many sign-ups from this address. Please try again in an hour.', code: 'sign_up_limited' });
      expect(await own.ctx.db.select({ id: users.id }).from(users)).toHaveLength(SIGN_UP_IP_LIMIT);
    } finally {
      await own.close();
    }
  });

  it('concurrent registrations with one email: one account, the others get the field error, never 500', async () => {
    const body = { firstName: 'Sama', lastName: 'Email', email: 'race@test.local', password: 'password123', password2: 'password123', agreeToTerms: true };
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.http.post('/api/auth/register').send(body)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(422);
      expect(a.body.errors.email).toBe('Email is already registered.');
    }
    expect(await t.ctx.db.select().from(users).where(eq(users.email, 'race@test.local'))).toHaveLength(1);
  });
});

describe('answers that name the problem', () => {
  it('a body in an encoding the server does not read is 415, not a server error', async () => {
    const res = await t.http.post('/api/auth/login').set('Content-Type', 'application/json').set('Content-Encoding', 'foo').send('{"email":"a","password":"b"}');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ msg: 'Unsupported request encoding', code: 'request_encoding_unsupported' });
  });

  it('a body that does not decompress as its Content-Encoding says is 400, not a logged server error', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await t.http.post('/api/auth/login').set('Content-Type', 'application/json').set('Content-Encoding', encoding).send('{"email":"a","password":"b"}');
      expect(res.status, encoding).toBe(400);
      expect(res.body, encoding).toMatchObject({ msg: 'Invalid request body', code: 'request_body_invalid' });
    }
  });

  it('a non-JSON body on a JSON call is 415, not a silent success that changes nothing', async () => {
    const m = await t.user('member');
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/merge-patch+json']) {
      const res = await t.http.put(`/api/admin/users/${m.id}`).set(m.auth).set('Content-Type', type).send(type === 'application/x-www-form-urlencoded' ? 'firstname=Zed' : '{"firstname":"Zed"}');
      expect(res.status, type).toBe(415);
      expect(res.body, type).toMatchObject({ code: 'request_content_type_unsupported' });
    }
    expect((await t.http.get(`/api/admin/users/${m.id}`).set(m.auth)).body.user.firstname).not.toBe('Zed');
    // A call without a body needs no content type; multipart stays for the upload calls.
    expect((await t.http.post('/api/auth/logout').set((await t.user('member')).auth)).status).toBe(200);
  });

  it('an over-long settings text is too long, not missing', async () => {
    const current = (await t.http.get('/api/admin/setting/get').set(admin.auth)).body.setting;
    const res = await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...current, info: 'x'.repeat(5001) });
    expect(res.status).toBe(422);
    expect(res.body.errors.info).toBe('Info is too long.');
    expect(res.body.code).toBe('field_too_long');
  });
});
