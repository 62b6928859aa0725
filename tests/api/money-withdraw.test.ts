import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { connected, nextMessage, startTestApp, type TestApp, type TestUser } from '../helpers';
import { one } from '../../server/src/db/raw';
import { bonuses, withdrawals } from '../../server/src/db/schema';
import { NO_BALANCE_MSG } from '../../server/src/withdrawals/schema';
import { earn, setBank } from './money-fixtures';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

async function memberWith(balance: number, bank = true, role: 'member' | 'dev' = 'member'): Promise<TestUser> {
  const m = await t.user(role);
  if (bank) await setBank(t.ctx.db, m.id);
  if (balance > 0) await earn(t.ctx.db, m.id, balance / 1000, 1000);
  return m;
}

const balanceOf = async (m: TestUser) => (await t.http.get(`/api/admin/withdraw/balance/${m.id}`).set(m.auth)).body.balance as number;
const request = (m: TestUser, body: Record<string, unknown>) => t.http.post('/api/admin/withdraw/request').set(m.auth).send(body);
const move = (id: number, status: string, who: TestUser = admin) => t.http.put('/api/admin/withdraw/update').set(who.auth).send({ id, status });

describe('withdraw request', () => {
  it('20 concurrent requests of 10,000 against 50,000 → exactly 5 accepted and a balance of 0', async () => {
    const m = await memberWith(50000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => request(m, { nominal: 10000, userId: m.id })));
    const created = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status !== 201);
    expect(created).toHaveLength(5);
    expect(refused).toHaveLength(15);
    expect(refused.every((r) => r.status === 422 && /Saldo tidak mencukupi/.test(r.body.msg))).toBe(true);
    expect(await balanceOf(m)).toBe(0);
    const rows = await t.ctx.db.select().from(withdrawals).where(eq(withdrawals.userId, m.id));
    expect(rows).toHaveLength(5);
    expect(rows.reduce((s, r) => s + r.nominal, 0)).toBe(50000);
  });

  it('two concurrent requests for the whole balance → exactly one succeeds', async () => {
    const m = await memberWith(40000);
    const answers = await Promise.all([request(m, { nominal: 40000 }), request(m, { nominal: 40000 })]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 422]);
    expect(answers.find((r) => r.status === 422)?.body.msg).toBe(NO_BALANCE_MSG);
    expect(await balanceOf(m)).toBe(0);
    expect(await t.ctx.db.select().from(withdrawals).where(eq(withdrawals.userId, m.id))).toHaveLength(1);
  });

  it('a bonus taken back while the member withdraws it: one of the two wins, the balance never goes below 0', async () => {
    const m = await memberWith(0);
    const bonus = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 30000, reason: 'sekali' });
    expect(bonus.status).toBe(201);
    const [taken, withdrawn] = await Promise.all([t.http.delete(`/api/admin/bonus/${bonus.body.bonus.id}`).set(admin.auth), request(m, { nominal: 30000 })]);
    expect([taken.status === 200, withdrawn.status === 201].filter(Boolean)).toHaveLength(1);
    expect(await balanceOf(m)).toBe(0);
  });

  it('refused requests roll back only themselves: concurrent bonuses all stay', async () => {
    const m = await memberWith(10000);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => [
        request(m, { nominal: 1_000_000 }),
        t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 1000, reason: `bonus ${i}` }),
      ]).flat(),
    );
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => [422, 201]).flat());
    expect(await t.ctx.db.select().from(bonuses).where(eq(bonuses.userId, m.id))).toHaveLength(10);
    expect(await t.ctx.db.select().from(withdrawals).where(eq(withdrawals.userId, m.id))).toEqual([]);
    expect(await balanceOf(m)).toBe(20000);
  });

  it('refuses less than 10,000 with the spec message, and non-numbers', async () => {
    const m = await memberWith(50000);
    const low = await request(m, { nominal: 9999 });
    expect(low.status).toBe(422);
    expect(low.body.msg).toBe('Minimal permintaan penarikan adalah Rp 10.000');
    expect((await request(m, { nominal: 'sepuluh' })).status).toBe(422);
    expect((await request(m, {})).status).toBe(422);
    expect((await request(m, { nominal: 10000.5 })).status).toBe(422);
    const ok = await request(m, { nominal: '10000' });
    expect(ok.status).toBe(201);
    expect(ok.body.withdraw).toMatchObject({ userId: m.id, nominal: 10000, status: 'requested' });
  });

  it("refuses an amount written with a separator ('10.000', '12,000') with a field error instead of guessing it", async () => {
    const m = await memberWith(50000);
    for (const nominal of ['10.000', '12,000', '+10.000', '1.000.000', '10000,5', '10.5', ' 10.000 ']) {
      const res = await request(m, { nominal });
      expect(res.status, nominal).toBe(422);
      expect(res.body, nominal).toMatchObject({
        code: 'amount_digits_only',
        errors: { nominal: 'Write the amount in digits only, without separators (10000, not 10.000).' },
      });
    }
    expect(await balanceOf(m)).toBe(50000);
    // Digits only, as text or as a number, still count.
    expect((await request(m, { nominal: '10000' })).status).toBe(201);
    expect((await request(m, { nominal: 12000 })).status).toBe(201);
    expect(await balanceOf(m)).toBe(28000);
  });

  it('answers code 1 when the bank account is missing', async () => {
    const m = await memberWith(50000, false);
    const res = await request(m, { nominal: 10000 });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(1);
    expect(res.body.msg).toMatch(/Rekening bank/);
    await t.http.put(`/api/admin/users/${m.id}`).set(m.auth).send({ account_bank: 'BCA', account_number: '123456', account_name: 'Saya' }).expect(200);
    expect((await request(m, { nominal: 10000 })).status).toBe(201);
  });

  it('refuses more than the balance', async () => {
    const m = await memberWith(20000);
    const res = await request(m, { nominal: 20001 });
    expect(res.status).toBe(422);
    expect(res.body.msg).toBe('Saldo tidak mencukupi untuk permintaan penarikan ini.');
    expect(await balanceOf(m)).toBe(20000);
  });

  it('nobody requests for someone else', async () => {
    const me = await memberWith(50000);
    const victim = await memberWith(50000);
    const res = await request(me, { nominal: 10000, userId: victim.id });
    expect(res.status).toBe(403);
    expect(await balanceOf(victim)).toBe(50000);
    expect(await balanceOf(me)).toBe(50000);
    const dev = await memberWith(50000, true, 'dev');
    expect((await request(dev, { nominal: 10000, userId: victim.id })).status).toBe(403);
    expect((await request(dev, { nominal: 10000, userId: dev.id })).status).toBe(201);
    expect((await request(admin, { nominal: 10000 })).status).toBe(403);
    const staff = await t.user('staff');
    expect((await request(staff, { nominal: 10000 })).status).toBe(403);
  });
});

describe('withdraw status moves', () => {
  it('requested → accepted → requested, requested → rejected → requested; records who and when', async () => {
    const m = await memberWith(30000);
    const w = (await request(m, { nominal: 10000 })).body.withdraw as { id: number };
    const acc = await move(w.id, 'accepted');
    expect(acc.status).toBe(200);
    expect(acc.body.msg).toBe('Permintaan withdraw Diterima');
    expect(acc.body.withdraw).toMatchObject({ status: 'accepted', updatedBy: admin.id });
    expect(typeof acc.body.withdraw.updatedAt).toBe('string');
    expect(await balanceOf(m)).toBe(20000);
    const back = await move(w.id, 'requested');
    expect(back.body.msg).toBe('Permintaan withdraw Dibatalkan');
    expect(await balanceOf(m)).toBe(20000);
    const rej = await move(w.id, 'rejected');
    expect(rej.body.msg).toBe('Permintaan withdraw Ditolak');
    expect(await balanceOf(m)).toBe(30000);
    expect((await move(w.id, 'requested')).status).toBe(200);
    expect(await balanceOf(m)).toBe(20000);
  });

  it('refuses moves the rules do not allow', async () => {
    const m = await memberWith(30000);
    const w = (await request(m, { nominal: 10000 })).body.withdraw as { id: number };
    expect((await move(w.id, 'requested')).status).toBe(409);
    await move(w.id, 'accepted').expect(200);
    const direct = await move(w.id, 'rejected');
    expect(direct.status).toBe(409);
    expect(direct.body.msg).toMatch(/tidak dapat diubah/);
    expect((await move(w.id, 'paid')).status).toBe(422);
    expect((await move(999999, 'accepted')).status).toBe(404);
  });

  it('re-checks the balance when a rejected request comes back', async () => {
    const m = await memberWith(20000);
    const first = (await request(m, { nominal: 20000 })).body.withdraw as { id: number };
    await move(first.id, 'rejected').expect(200);
    await request(m, { nominal: 15000 }).expect(201);
    const back = await move(first.id, 'requested');
    expect(back.status).toBe(409);
    expect(back.body.msg).toMatch(/Saldo member tidak mencukupi/);
    expect(await balanceOf(m)).toBe(5000);
    const row = await one(t.ctx.db.select().from(withdrawals).where(eq(withdrawals.id, first.id)));
    expect(row?.status).toBe('rejected');
  });

  it('only admin changes a status; staff and dev read the list', async () => {
    const m = await memberWith(20000);
    const w = (await request(m, { nominal: 10000 })).body.withdraw as { id: number };
    for (const role of ['staff', 'dev', 'member'] as const) {
      const u = role === 'member' ? m : await t.user(role);
      const res = await move(w.id, 'accepted', u);
      expect(res.status, role).toBe(403);
      if (role !== 'member') {
        const list = await t.http.get('/api/admin/withdraw/histories-per-page?page=1').set(u.auth);
        expect(list.status, role).toBe(200);
        expect(list.body.data.some((x: { id: number }) => x.id === w.id)).toBe(true);
      }
    }
    expect((await one(t.ctx.db.select().from(withdrawals).where(eq(withdrawals.id, w.id))))?.status).toBe('requested');
  });

  it('a status change reaches the member live with absolute figures', async () => {
    const m = await memberWith(20000);
    const w = (await request(m, { nominal: 10000 })).body.withdraw as { id: number };
    const s = t.socket(m.token);
    await connected(s);
    const withdrawMsg = nextMessage<{ id: number; status: string }>(s, String(m.id), (x) => x.event === 'withdraw');
    const balanceMsg = nextMessage<{ balance: number; totalAccepted: number }>(s, String(m.id), (x) => x.event === 'balance');
    await move(w.id, 'accepted').expect(200);
    expect((await withdrawMsg).data).toMatchObject({ id: w.id, status: 'accepted' });
    expect((await balanceMsg).data).toMatchObject({ balance: 10000, totalAccepted: 10000, totalRequested: 0 });
  });
});

describe('withdraw lists', () => {
  it('a member sees only their own history, whatever user_id says; admin sees all with bank details', async () => {
    const me = await memberWith(30000);
    const other = await memberWith(30000);
    const mine = (await request(me, { nominal: 10000 })).body.withdraw as { id: number };
    const theirs = (await request(other, { nominal: 12000 })).body.withdraw as { id: number };
    const page = await t.http.get(`/api/admin/withdraw/histories-per-page?page=1&user_id=${other.id}`).set(me.auth);
    expect(page.status).toBe(200);
    expect(page.body.data.map((x: { id: number }) => x.id)).toEqual([mine.id]);
    const own = await t.http.get(`/api/admin/withdraw/history/${me.id}`).set(me.auth);
    expect(own.body.list.map((x: { id: number }) => x.id)).toEqual([mine.id]);
    expect((await t.http.get('/api/admin/withdraw/histories').set(me.auth)).status).toBe(403);

    const all = await t.http.get('/api/admin/withdraw/histories').set(admin.auth);
    const row = all.body.list.find((x: { id: number }) => x.id === theirs.id);
    expect(row.User).toMatchObject({ firstname: other.row.firstname, account_bank: 'BCA', account_number: '1234567890', account_name: 'Pemilik Rekening' });
    const filtered = await t.http.get(`/api/admin/withdraw/histories-per-page?page=1&user_id=${other.id}`).set(admin.auth);
    expect(filtered.body.data.map((x: { id: number }) => x.id)).toEqual([theirs.id]);
    const staff = await t.user('staff');
    expect((await t.http.get(`/api/admin/withdraw/history/${other.id}`).set(staff.auth)).body.list).toHaveLength(1);
  });

  it('pages by 10, newest first', async () => {
    const m = await memberWith(120000);
    for (let i = 0; i < 11; i++) await request(m, { nominal: 10000 + i }).expect(201);
    const p1 = await t.http.get('/api/admin/withdraw/histories-per-page?page=1').set(m.auth);
    const p2 = await t.http.get('/api/admin/withdraw/histories-per-page?page=2').set(m.auth);
    expect(p1.body.data).toHaveLength(10);
    expect(p1.body.meta).toMatchObject({ page: 1, pageSize: 10, total: 11, totalPages: 2 });
    expect(p1.body.data[0].nominal).toBe(10010);
    expect(p2.body.data.map((x: { nominal: number }) => x.nominal)).toEqual([10000]);
  });
});
