import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bonuses, users, withdrawals } from '../../server/src/db/schema';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

const funded = async () => {
  const m = await t.user('member');
  await t.ctx.db.update(users).set({ income: 100_000, accountBank: 'BCA', accountNumber: '1', accountName: 'M' }).where(eq(users.id, m.id));
  return m;
};
const withdrawalsOf = (id: number) => t.ctx.db.select().from(withdrawals).where(eq(withdrawals.userId, id));
const bonusesOf = (id: number) => t.ctx.db.select().from(bonuses).where(eq(bonuses.userId, id));
const audits = async (action: string) => (await t.ctx.db.select().from(auditLog)).filter((a) => a.action === action).length;

describe('a withdrawal request sent again with its Idempotency-Key is made once', () => {
  it('answers the first request again, without a second withdrawal, audit row or held amount', async () => {
    const m = await funded();
    const send = (nominal: number) => t.http.post('/api/admin/withdraw/request').set(m.auth).set('Idempotency-Key', `wd-${m.id}-key-1`).send({ nominal });
    const before = await audits('withdraw.request');
    const first = await send(20_000);
    expect(first.status).toBe(201);
    const again = await send(20_000);
    expect(again.status).toBe(201);
    expect(again.body.withdraw.id).toBe(first.body.withdraw.id);
    expect(await withdrawalsOf(m.id)).toHaveLength(1);
    expect(await audits('withdraw.request')).toBe(before + 1);
    expect((await t.http.get(`/api/admin/withdraw/balance/${m.id}`).set(m.auth)).body.balance).toBe(80_000);
    // The same key for another amount is refused; a new key makes a new request.
    const other = await send(30_000);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'idempotency_key_reused' });
    const fresh = await t.http.post('/api/admin/withdraw/request').set(m.auth).set('Idempotency-Key', `wd-${m.id}-key-2`).send({ nominal: 20_000 });
    expect(fresh.status).toBe(201);
    expect(await withdrawalsOf(m.id)).toHaveLength(2);
  });

  it('ten copies sent at once make one withdrawal', async () => {
    const m = await funded();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.http.post('/api/admin/withdraw/request').set(m.auth).set('Idempotency-Key', `burst-${m.id}-abcdef`).send({ nominal: 10_000 })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body.withdraw.id)).size).toBe(1);
    expect(await withdrawalsOf(m.id)).toHaveLength(1);
  });

  it('keys are per member, and a request without a key works as before', async () => {
    const a = await funded();
    const b = await funded();
    for (const m of [a, b]) expect((await t.http.post('/api/admin/withdraw/request').set(m.auth).set('Idempotency-Key', 'shared-key-123').send({ nominal: 10_000 })).status).toBe(201);
    expect(await withdrawalsOf(a.id)).toHaveLength(1);
    expect(await withdrawalsOf(b.id)).toHaveLength(1);
    for (let i = 0; i < 2; i++) expect((await t.http.post('/api/admin/withdraw/request').set(a.auth).send({ nominal: 10_000 })).status).toBe(201);
    expect(await withdrawalsOf(a.id)).toHaveLength(3);
  });

  it('refuses a malformed key with 400 and makes nothing', async () => {
    const m = await funded();
    for (const key of ['short', 'has spaces in it', 'x'.repeat(129), 'ünïcödé-key']) {
      const res = await t.http.post('/api/admin/withdraw/request').set(m.auth).set('Idempotency-Key', key).send({ nominal: 10_000 });
      expect(res.status, key).toBe(400);
      expect(res.body.code, key).toBe('idempotency_key_invalid');
    }
    expect(await withdrawalsOf(m.id)).toHaveLength(0);
  });
});

describe('a bonus sent again with its Idempotency-Key is made once', () => {
  it('answers the first bonus again; the same key for another bonus is refused', async () => {
    const m = await t.user('member');
    const send = (body: object) => t.http.post('/api/admin/bonus/create').set(admin.auth).set('Idempotency-Key', `bonus-${m.id}-1`).send(body);
    const body = { userId: m.id, nominal: 5_000, reason: 'Promo' };
    const first = await send(body);
    expect(first.status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(body)));
    for (const a of answers) {
      expect(a.status).toBe(201);
      expect(a.body.bonus.id).toBe(first.body.bonus.id);
    }
    expect(await bonusesOf(m.id)).toHaveLength(1);
    expect((await t.http.get(`/api/admin/withdraw/balance/${m.id}`).set(admin.auth)).body.balance).toBe(5_000);
    expect((await send({ ...body, nominal: 6_000 })).status).toBe(409);
    expect((await send({ ...body, reason: 'Lain' })).status).toBe(409);
    expect(await bonusesOf(m.id)).toHaveLength(1);
  });
});
