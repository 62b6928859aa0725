import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { connected, nextMessage, startTestApp, type TestApp, type TestUser } from '../helpers';
import { transaction } from '../../server/src/db/client';
import { one } from '../../server/src/db/raw';
import { messageLogs, referralCredits, users, withdrawals } from '../../server/src/db/schema';
import { creditReferral, referralAmount } from '../../server/src/money/referral';
import { earn, recordSends, setBank, setReferralPercent } from './money-fixtures';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

async function figures(u: TestUser, caller: TestUser = u) {
  const get = async (path: string) => {
    const res = await t.http.get(`/api/admin/${path}/${u.id}`).set(caller.auth);
    expect(res.status, path).toBe(200);
    return res.body as Record<string, number>;
  };
  return {
    income: (await get('withdraw/income')).income,
    balance: (await get('withdraw/balance')).balance,
    requested: (await get('withdraw/total-requested')).total,
    accepted: (await get('withdraw/total-accepted')).total,
    bonus: (await get('bonus/total')).totalBonus,
  };
}

describe('the balance formula', () => {
  it('is income + bonuses + referral credits − withdrawals requested or accepted, in whole rupiah', async () => {
    await setReferralPercent(t.ctx.db, 10);
    const referrer = await t.user('member');
    const referred = await t.user('member', { referredBy: referrer.id });
    await setBank(t.ctx.db, referrer.id);

    // Referrer earns 40 × 75 = 3000 itself, plus failures that earn nothing.
    await recordSends(t.ctx.db, referrer.id, [
      ...Array.from({ length: 40 }, () => ({ success: true, income: 75 })),
      { success: false, income: 75 },
      { success: false, income: 75 },
    ]);
    // The referred member earns 33 × 55 = 1815; 10 % of 55 is 5.5 → 5 per message → 165.
    await earn(t.ctx.db, referred.id, 33, 55);

    expect(await figures(referrer)).toEqual({ income: 3000, balance: 3165, requested: 0, accepted: 0, bonus: 0 });

    const bonus = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: referrer.id, nominal: 50000, reason: 'Bonus bulanan' });
    expect(bonus.status).toBe(201);
    expect(await figures(referrer)).toMatchObject({ balance: 53165, bonus: 50000 });

    const r1 = await t.http.post('/api/admin/withdraw/request').set(referrer.auth).send({ nominal: 10000, userId: referrer.id });
    const r2 = await t.http.post('/api/admin/withdraw/request').set(referrer.auth).send({ nominal: 15000, userId: referrer.id });
    const r3 = await t.http.post('/api/admin/withdraw/request').set(referrer.auth).send({ nominal: 20000 });
    expect([r1.status, r2.status, r3.status]).toEqual([201, 201, 201]);
    expect(await figures(referrer)).toEqual({ income: 3000, balance: 8165, requested: 45000, accepted: 0, bonus: 50000 });

    await t.http.put('/api/admin/withdraw/update').set(admin.auth).send({ id: r1.body.withdraw.id, status: 'accepted' }).expect(200);
    await t.http.put('/api/admin/withdraw/update').set(admin.auth).send({ id: r2.body.withdraw.id, status: 'rejected' }).expect(200);
    // requested 20000 + accepted 10000 are held; the rejected 15000 is back in the balance.
    expect(await figures(referrer)).toEqual({ income: 3000, balance: 23165, requested: 20000, accepted: 10000, bonus: 50000 });
  });

  it('income is the sum of the member\'s message-log incomes', async () => {
    const m = await t.user('member');
    await recordSends(t.ctx.db, m.id, [
      { success: true, income: 100 },
      { success: true, income: 120 },
      { success: false, income: 0 },
    ]);
    const sum = (await one(t.ctx.db.select({ n: sql<number | string>`sum(${messageLogs.income})` }).from(messageLogs).where(eq(messageLogs.userId, m.id))))?.n;
    const res = await t.http.get(`/api/admin/withdraw/income/${m.id}`).set(m.auth);
    expect(res.body).toEqual({ income: 220 });
    expect(Number(sum)).toBe(220);
  });

  it('a user without any money has zero figures; an unknown user is 404', async () => {
    const m = await t.user('member');
    expect(await figures(m)).toEqual({ income: 0, balance: 0, requested: 0, accepted: 0, bonus: 0 });
    expect((await t.http.get('/api/admin/withdraw/balance/999999').set(admin.auth)).status).toBe(404);
  });
});

describe('creditReferral', () => {
  it('credits floor(income × percent / 100) to the referrer inside the caller\'s transaction', async () => {
    await setReferralPercent(t.ctx.db, 15);
    const referrer = await t.user('member');
    const referred = await t.user('member', { referredBy: referrer.id });
    const credit = await transaction(t.ctx.db, (tx) => creditReferral(tx, referred.id, 99, 12345));
    expect(credit).toMatchObject({ referrerId: referrer.id, referredId: referred.id, amount: 14 });
    const row = await one(t.ctx.db.select().from(referralCredits).where(eq(referralCredits.id, credit!.id)));
    expect(row).toMatchObject({ referrerId: referrer.id, referredId: referred.id, amount: 14, messageLogId: 12345 });
    const balance = await t.http.get(`/api/admin/withdraw/balance/${referrer.id}`).set(referrer.auth);
    expect(balance.body.balance).toBe(14);
  });

  it('rolls back with the transaction that called it', async () => {
    await setReferralPercent(t.ctx.db, 50);
    const referrer = await t.user('member');
    const referred = await t.user('member', { referredBy: referrer.id });
    await expect(
      transaction(t.ctx.db, async (tx) => {
        expect(await creditReferral(tx, referred.id, 1000, null)).not.toBeNull();
        throw new Error('send failed after the credit');
      }),
    ).rejects.toThrow('send failed after the credit');
    const rows = await t.ctx.db.select().from(referralCredits).where(eq(referralCredits.referrerId, referrer.id));
    expect(rows).toEqual([]);
  });

  it('credits nothing without a referrer, without income, at 0 % or when the share rounds to 0', async () => {
    await setReferralPercent(t.ctx.db, 10);
    const loner = await t.user('member');
    const referrer = await t.user('member');
    const referred = await t.user('member', { referredBy: referrer.id });
    expect(await transaction(t.ctx.db, (tx) => creditReferral(tx, loner.id, 1000, null))).toBeNull();
    expect(await transaction(t.ctx.db, (tx) => creditReferral(tx, referred.id, 0, null))).toBeNull();
    expect(await transaction(t.ctx.db, (tx) => creditReferral(tx, referred.id, 9, null))).toBeNull();
    await setReferralPercent(t.ctx.db, 0);
    expect(await transaction(t.ctx.db, (tx) => creditReferral(tx, referred.id, 1000, null))).toBeNull();
    expect(referralAmount(1000, 0)).toBe(0);
    expect(referralAmount(1001, 33)).toBe(330);
    expect(referralAmount(-5, 10)).toBe(0);
  });
});

describe('referral list', () => {
  it('shows each referred member with the sum credited from them, and the total', async () => {
    await setReferralPercent(t.ctx.db, 10);
    const referrer = await t.user('member');
    const a = await t.user('member', { referredBy: referrer.id, firstname: 'Ani' });
    const b = await t.user('member', { referredBy: referrer.id, firstname: 'Bima' });
    const stranger = await t.user('member');
    await earn(t.ctx.db, a.id, 3, 100); // 3 × 10
    await earn(t.ctx.db, b.id, 2, 250); // 2 × 25
    await earn(t.ctx.db, stranger.id, 5, 100);
    const res = await t.http.get(`/api/admin/users/referral-per-page?page=1&userId=${referrer.id}`).set(referrer.auth);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(80);
    expect(res.body.meta).toMatchObject({ page: 1, totalPages: 1 });
    const rows = res.body.list as Array<{ id: number; firstname: string; email: string; income: number }>;
    expect(rows.map((r) => [r.firstname, r.email, r.income]).sort()).toEqual(
      [
        ['Ani', a.row.email, 30],
        ['Bima', b.row.email, 50],
      ].sort(),
    );
  });

  it('pages by 10 and a member cannot read someone else\'s list', async () => {
    const referrer = await t.user('member');
    for (let i = 0; i < 11; i++) await t.user('member', { referredBy: referrer.id });
    const p2 = await t.http.get(`/api/admin/users/referral-per-page?page=2&userId=${referrer.id}`).set(referrer.auth);
    expect(p2.body.list).toHaveLength(1);
    expect(p2.body.meta.totalPages).toBe(2);
    const other = await t.user('member');
    const denied = await t.http.get(`/api/admin/users/referral-per-page?page=1&userId=${referrer.id}`).set(other.auth);
    expect(denied.status).toBe(403);
    expect(denied.body.list).toBeUndefined();
    const own = await t.http.get('/api/admin/users/referral-per-page?page=1').set(other.auth);
    expect(own.body).toMatchObject({ list: [], total: 0 });
    const byAdmin = await t.http.get(`/api/admin/users/referral-per-page?page=1&userId=${referrer.id}`).set(admin.auth);
    expect(byAdmin.body.meta.total).toBe(11);
  });
});

describe('bonuses', () => {
  it('admin creates a bonus; adminId is the signed-in admin whatever the body says', async () => {
    const m = await t.user('member');
    const otherAdmin = await t.user('admin');
    const res = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ adminId: otherAdmin.id, userId: m.id, nominal: '25000', reason: 'Hadiah' });
    expect(res.status).toBe(201);
    expect(res.body.msg).toBe('Bonus berhasil dikirim.');
    expect(res.body.bonus).toMatchObject({ adminId: admin.id, userId: m.id, nominal: 25000, reason: 'Hadiah' });
  });

  it('requires member, a positive whole nominal and a reason', async () => {
    const m = await t.user('member');
    const none = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({});
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.errors)).toEqual(expect.arrayContaining(['nominal', 'reason']));
    const noMember = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ nominal: 1000, reason: 'x' });
    expect(noMember.status).toBe(422);
    expect(noMember.body.errors.userId).toBeTruthy();
    for (const nominal of [0, -5, 1.5, 'abc']) {
      const bad = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal, reason: 'x' });
      expect(bad.status, String(nominal)).toBe(422);
    }
    const blank = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 1000, reason: '   ' });
    expect(blank.body.errors.reason).toBeTruthy();
    const missing = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: 999999, nominal: 1000, reason: 'x' });
    expect(missing.status).toBe(404);
    const otherAdmin = await t.user('admin');
    const toAdmin = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: otherAdmin.id, nominal: 1000, reason: 'x' });
    expect(toAdmin.status).toBe(422);
  });

  it('members list only their own bonuses; admin lists all or one member\'s', async () => {
    const m = await t.user('member');
    const other = await t.user('member');
    await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 1000, reason: 'mine' }).expect(201);
    await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: other.id, nominal: 2000, reason: 'theirs' }).expect(201);
    const mine = await t.http.get(`/api/admin/bonus/list-per-page?page=1&user_id=${other.id}`).set(m.auth);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((b: { reason: string }) => b.reason)).toEqual(['mine']);
    expect(mine.body.data[0].User).toMatchObject({ firstname: m.row.firstname });
    const theirs = await t.http.get(`/api/admin/bonus/list-per-page?page=1&user_id=${other.id}`).set(admin.auth);
    expect(theirs.body.data.map((b: { reason: string }) => b.reason)).toEqual(['theirs']);
    const all = await t.http.get('/api/admin/bonus/list-per-page?page=1').set(admin.auth);
    expect(all.body.meta.total).toBeGreaterThanOrEqual(2);
    expect((await t.http.get(`/api/admin/bonus/total/${other.id}`).set(m.auth)).status).toBe(403);
    expect((await t.http.get(`/api/admin/bonus/total/${m.id}`).set(m.auth)).body).toEqual({ totalBonus: 1000 });
  });

  it('deleting a bonus that would make the balance negative is refused with a clear msg', async () => {
    const m = await t.user('member');
    await setBank(t.ctx.db, m.id);
    const keep = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 30000, reason: 'a' });
    const gone = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 5000, reason: 'b' });
    await t.http.post('/api/admin/withdraw/request').set(m.auth).send({ nominal: 30000 }).expect(201);
    const refused = await t.http.delete(`/api/admin/bonus/${keep.body.bonus.id}`).set(admin.auth);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(/tidak dapat dihapus.*minus/);
    const ok = await t.http.delete(`/api/admin/bonus/${gone.body.bonus.id}`).set(admin.auth);
    expect(ok.status).toBe(200);
    expect((await t.http.get(`/api/admin/withdraw/balance/${m.id}`).set(m.auth)).body.balance).toBe(0);
    expect((await t.http.delete(`/api/admin/bonus/${gone.body.bonus.id}`).set(admin.auth)).status).toBe(404);
  });

  it('members cannot create or delete bonuses', async () => {
    const m = await t.user('member');
    expect((await t.http.post('/api/admin/bonus/create').set(m.auth).send({ userId: m.id, nominal: 99999, reason: 'self' })).status).toBe(403);
    const b = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 1000, reason: 'x' });
    expect((await t.http.delete(`/api/admin/bonus/${b.body.bonus.id}`).set(m.auth)).status).toBe(403);
    expect((await t.http.get(`/api/admin/bonus/total/${m.id}`).set(m.auth)).body.totalBonus).toBe(1000);
  });

  it('a bonus sends the member\'s absolute figures on their channel', async () => {
    const m = await t.user('member');
    const s = t.socket(m.token);
    await connected(s);
    const msg = nextMessage<{ balance: number; totalBonus: number }>(s, String(m.id), (x) => x.event === 'balance');
    await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 7000, reason: 'live' }).expect(201);
    expect((await msg).data).toMatchObject({ userId: m.id, balance: 7000, totalBonus: 7000, income: 0 });
  });
});

describe('ownership of money figures', () => {
  it('a member reads only their own income, balance, totals and history', async () => {
    const me = await t.user('member');
    const other = await t.user('member');
    for (const path of ['withdraw/income', 'withdraw/balance', 'withdraw/total-requested', 'withdraw/total-accepted', 'bonus/total', 'withdraw/history']) {
      const res = await t.http.get(`/api/admin/${path}/${other.id}`).set(me.auth);
      expect(res.status, path).toBe(403);
      expect(res.body.msg).toBe('Forbidden');
    }
    const dev = await t.user('dev');
    expect((await t.http.get(`/api/admin/withdraw/balance/${other.id}`).set(dev.auth)).status).toBe(200);
    const staff = await t.user('staff');
    expect((await t.http.get(`/api/admin/withdraw/balance/${other.id}`).set(staff.auth)).status).toBe(403);
    expect(await t.ctx.db.select().from(withdrawals).where(eq(withdrawals.userId, other.id))).toEqual([]);
    expect((await one(t.ctx.db.select({ income: users.income }).from(users).where(eq(users.id, other.id))))?.income).toBe(0);
  });
});
