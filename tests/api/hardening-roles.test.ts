import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one, rawRun } from '../../server/src/db/raw';
import { auditLog, bonuses, users, withdrawals } from '../../server/src/db/schema';
import { MSG } from '../../server/src/users/update';
import { SELF_BONUS_MSG } from '../../server/src/bonuses/service';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

let t: TestApp;
let admin: TestUser;
let dev: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  dev = await t.user('dev');
});
afterAll(() => t.close());

interface AuditRow {
  action: string;
  actorId: number;
  targetUserId: number | null;
  details: Record<string, unknown>;
  actor: { firstname: string } | null;
  target: { firstname: string } | null;
}
const auditRows = () => t.ctx.db.select().from(auditLog);
const lastAudit = async (): Promise<AuditRow> => (await t.http.get('/api/admin/audit?page=1').set(admin.auth)).body.data[0] as AuditRow;
const put = (who: TestUser, id: number, body: Record<string, unknown>) => t.http.put(`/api/admin/users/${id}`).set(who.auth).send(body);
const roleOf = async (id: number) => (await one(t.ctx.db.select({ role: users.role }).from(users).where(eq(users.id, id))))!.role;

describe('who may change whom (PUT /admin/users/{id})', () => {
  it('dev cannot reset the admin password, promote anyone or change roles; admin cannot touch admin or dev accounts', async () => {
    const before = (await auditRows()).length;
    const reset = await put(dev, admin.id, { password: 'takeover123' });
    expect(reset.status).toBe(403);
    expect(reset.body.msg).toBe(MSG.adminOnly);
    expect((await t.http.post('/api/auth/login').send({ email: admin.row.email, password: 'takeover123' })).status).toBe(401);

    const selfRegistered = await t.user('member');
    const promote = await put(dev, selfRegistered.id, { role: 'admin' });
    expect(promote.status).toBe(403);
    expect(await roleOf(selfRegistered.id)).toBe('member');

    const demoteDev = await put(admin, dev.id, { role: 'member' });
    expect(demoteDev).toMatchObject({ status: 403, body: { msg: MSG.protectedTarget } });
    expect(await roleOf(dev.id)).toBe('dev');
    const otherAdmin = await t.user('admin');
    expect((await put(admin, otherAdmin.id, { password: 'takeover123' })).body.msg).toBe(MSG.protectedTarget);

    const toAdmin = await put(admin, selfRegistered.id, { role: 'admin' });
    expect(toAdmin.status).toBe(422);
    expect(toAdmin.body.errors.role).toBe(MSG.roleValue);
    expect(await roleOf(selfRegistered.id)).toBe('member');

    expect((await put(admin, admin.id, { role: 'staff' })).body.msg).toBe(MSG.self);
    expect((await put(dev, dev.id, { blast_fee: 5000 })).status).toBe(403);
    expect((await put(admin, selfRegistered.id, { firstname: 'Diganti' })).body.msg).toBe(MSG.profileOwner);
    expect((await auditRows()).length).toBe(before);
  });

  it('admin changes a member to staff and resets a staff password; each change is audited', async () => {
    const m = await t.user('member', { firstname: 'Mira' });
    const res = await put(admin, m.id, { role: 'staff' });
    expect(res.status).toBe(200);
    expect(res.body.user.role).toBe('staff');
    expect(await lastAudit()).toMatchObject({
      action: 'user.role',
      actorId: admin.id,
      targetUserId: m.id,
      details: { from: 'member', to: 'staff' },
      target: { firstname: 'Mira' },
    });
    // The new role ends the old sessions.
    expect((await t.http.get(`/api/admin/users/${m.id}`).set(m.auth)).status).toBe(401);

    const reset = await put(admin, m.id, { password: 'barupassword1' });
    expect(reset.status).toBe(200);
    expect(reset.body.token).toBeUndefined();
    expect((await t.http.post('/api/auth/login').send({ email: m.row.email, password: 'barupassword1' })).status).toBe(200);
    expect(await lastAudit()).toMatchObject({ action: 'user.password', actorId: admin.id, targetUserId: m.id, details: { self: false } });
  });

  it('the same role or fee change sent three times at once is made and audited once', async () => {
    const m = await t.user('member');
    const roles = await Promise.all([1, 2, 3].map(() => put(admin, m.id, { role: 'staff' })));
    // One makes the change; the others find it made (no change) or, when they read the row before it, are refused.
    expect(roles.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(roles.every((r) => r.status === 200 || (r.status === 409 && r.body.msg === MSG.changedMeanwhile))).toBe(true);
    expect(await roleOf(m.id)).toBe('staff');
    const other = await t.user('member');
    const fees = await Promise.all([admin, dev, admin].map((who) => put(who, other.id, { blast_fee: 150 })));
    expect(fees.every((r) => r.status === 200 || (r.status === 409 && r.body.msg === MSG.changedMeanwhile))).toBe(true);
    const rows = (await auditRows()).filter((r) => r.targetUserId === m.id || r.targetUserId === other.id);
    expect(rows.map((r) => [r.action, r.details])).toEqual([
      ['user.role', { from: 'member', to: 'staff' }],
      ['user.fee', { from: null, to: 150 }],
    ]);
  });

  it('dev and admin set a member fee and intervals (audited); sending unchanged values is no change', async () => {
    const m = await t.user('member');
    const res = await put(dev, m.id, { blast_interval_min: 4, blast_interval_max: 9, blast_fee: 150 });
    expect(res.status).toBe(200);
    const rows = (await auditRows()).filter((r) => r.targetUserId === m.id);
    expect(rows.map((r) => r.action).sort()).toEqual(['user.fee', 'user.interval']);
    expect(rows.find((r) => r.action === 'user.fee')!.details).toEqual({ from: null, to: 150 });
    const same = await put(admin, m.id, { blast_interval_min: 4, blast_interval_max: 9, blast_fee: 150 });
    expect(same.status).toBe(200);
    expect((await auditRows()).filter((r) => r.targetUserId === m.id)).toHaveLength(2);
  });
});

describe('nobody pays themselves; money changes are audited', () => {
  it('a bonus to oneself is refused; bonus create and delete are audited', async () => {
    const own = await t.http.post('/api/admin/bonus/create').set(dev.auth).send({ userId: dev.id, nominal: 50_000, reason: 'Untuk saya' });
    expect(own.status).toBe(403);
    expect(own.body.msg).toBe(SELF_BONUS_MSG);
    expect(await t.ctx.db.select().from(bonuses).where(eq(bonuses.userId, dev.id))).toHaveLength(0);
    expect((await t.http.get(`/api/admin/withdraw/balance/${dev.id}`).set(dev.auth)).body.balance).toBe(0);

    const m = await t.user('member');
    const created = await t.http.post('/api/admin/bonus/create').set(dev.auth).send({ userId: m.id, nominal: 25_000, reason: 'Promo' });
    expect(created.status).toBe(201);
    expect(await lastAudit()).toMatchObject({ action: 'bonus.create', actorId: dev.id, targetUserId: m.id, details: { nominal: 25_000, reason: 'Promo' } });
    expect((await t.http.delete(`/api/admin/bonus/${created.body.bonus.id}`).set(admin.auth)).status).toBe(200);
    expect(await lastAudit()).toMatchObject({ action: 'bonus.delete', actorId: admin.id, targetUserId: m.id, details: { nominal: 25_000 } });
  });

  it('withdrawal decisions, settings and levels are audited', async () => {
    const m = await t.user('member');
    await t.ctx.db.update(users).set({ income: 50_000, accountBank: 'BCA', accountNumber: '123', accountName: 'M' }).where(eq(users.id, m.id));
    const w = await t.http.post('/api/admin/withdraw/request').set(m.auth).send({ nominal: 20_000 });
    expect(w.status).toBe(201);
    expect(await lastAudit()).toMatchObject({
      action: 'withdraw.request',
      actorId: m.id,
      targetUserId: m.id,
      details: { withdrawId: w.body.withdraw.id, nominal: 20_000, account: { bank: 'BCA', number: '123', name: 'M' } },
    });
    expect((await t.http.put('/api/admin/withdraw/update').set(admin.auth).send({ id: w.body.withdraw.id, status: 'accepted' })).status).toBe(200);
    expect(await lastAudit()).toMatchObject({ action: 'withdraw.status', actorId: admin.id, targetUserId: m.id, details: { from: 'requested', to: 'accepted', nominal: 20_000 } });

    const current = (await t.http.get('/api/admin/setting/get').set(admin.auth)).body.setting;
    expect((await t.http.put('/api/admin/setting/update').set(admin.auth).send({ ...current, info: current.info || 'Info layanan', price: 77 })).status).toBe(200);
    expect(await lastAudit()).toMatchObject({ action: 'settings.update', targetUserId: null, details: { price: { from: current.price, to: 77 } } });

    const level = await t.http.post('/api/admin/level/create').set(admin.auth).send({ name: 'Emas', blast_fee: 90, requirement_blast: 777 });
    expect(await lastAudit()).toMatchObject({ action: 'level.create', details: { name: 'Emas', blast_fee: 90 } });
    await t.http.put(`/api/admin/level/${level.body.level.id}`).set(dev.auth).send({ name: 'Emas', blast_fee: 95, requirement_blast: 777 });
    expect(await lastAudit()).toMatchObject({ action: 'level.update', actorId: dev.id, details: { from: { blast_fee: 90 }, to: { blast_fee: 95 } } });
    await t.http.delete(`/api/admin/level/${level.body.level.id}`).set(admin.auth);
    expect((await lastAudit()).action).toBe('level.delete');
  });
});

describe('GET /api/admin/audit', () => {
  it('answers admin and dev ten rows a page, newest first; others are refused', async () => {
    const page1 = await t.http.get('/api/admin/audit?page=1').set(dev.auth);
    expect(page1.status).toBe(200);
    const total = (await auditRows()).length;
    expect(page1.body.meta).toEqual({ page: 1, pageSize: 10, total, totalPages: Math.max(1, Math.ceil(total / 10)) });
    expect(page1.body.data).toHaveLength(Math.min(10, total));
    const ids = (page1.body.data as Array<{ id: number }>).map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const page2 = await t.http.get('/api/admin/audit?page=2').set(admin.auth);
    expect((page2.body.data as Array<{ id: number }>).every((r) => r.id < ids[ids.length - 1]!)).toBe(true);
    for (const role of ['member', 'staff'] as const) {
      expect((await t.http.get('/api/admin/audit?page=1').set((await t.user(role)).auth)).status).toBe(403);
    }
  });

  it('the change and its audit row commit together', async () => {
    const m = await t.user('member');
    const countBefore = (await t.ctx.db.select().from(withdrawals)).length;
    // Without the audit table the audited change cannot commit either.
    await rawRun(t.ctx.db, sql`ALTER TABLE audit_log RENAME TO audit_log_away`);
    try {
      const res = await t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 10_000, reason: 'x' });
      expect(res.status).toBe(500);
      expect(await t.ctx.db.select().from(bonuses).where(eq(bonuses.userId, m.id))).toHaveLength(0);
      expect((await put(admin, m.id, { role: 'staff' })).status).toBe(500);
      expect(await roleOf(m.id)).toBe('member');
    } finally {
      await rawRun(t.ctx.db, sql`ALTER TABLE audit_log_away RENAME TO audit_log`);
    }
    expect(await t.ctx.db.select().from(withdrawals)).toHaveLength(countBefore);
  });
});

describe('the account withdrawals are paid to is in the audit log', () => {
  it('a bank detail change is recorded from → to, and a withdrawal decision records the account it was made for', async () => {
    const m = await t.user('member');
    await t.ctx.db.update(users).set({ accountBank: 'BCA', accountNumber: '1234', accountName: 'Sari', income: 50_000 }).where(eq(users.id, m.id));
    const requested = await t.http.post('/api/admin/withdraw/request').set(m.auth).send({ nominal: 10_000 });
    expect(requested.status).toBe(201);
    const withdrawId = (requested.body.data ?? requested.body.withdraw ?? requested.body).id as number;

    expect((await put(m, m.id, { account_number: '5555' })).status).toBe(200);
    const change = await lastAudit();
    expect(change.action).toBe('user.bank');
    expect(change.actorId).toBe(m.id);
    expect(change.details).toEqual({ from: { bank: 'BCA', number: '1234', name: 'Sari' }, to: { bank: 'BCA', number: '5555', name: 'Sari' } });
    // Saving the same details again records nothing.
    const rows = (await auditRows()).length;
    expect((await put(m, m.id, { account_number: '5555', firstname: 'Sari' })).status).toBe(200);
    expect((await auditRows()).length).toBe(rows);

    expect((await t.http.put('/api/admin/withdraw/update').set(admin.auth).send({ id: withdrawId, status: 'accepted' })).status).toBe(200);
    const decision = await lastAudit();
    expect(decision.action).toBe('withdraw.status');
    expect(decision.details).toMatchObject({ withdrawId, nominal: 10_000, account: { bank: 'BCA', number: '5555', name: 'Sari' }, to: 'accepted' });
  });
});
