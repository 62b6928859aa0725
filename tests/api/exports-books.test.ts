import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { auditLog, levels, messageLogs, users, withdrawals } from '../../server/src/db/schema';
import { eq } from 'drizzle-orm';
import { wibMidnight } from '../../server/src/exports/service';

const rowsOf = (text: string) => Papa.parse<string[]>(text.trim(), { skipEmptyLines: true }).data;
/** A moment on a WIB day, `hours` after its midnight. */
const on = (day: string, hours: number) => new Date(wibMidnight(day).getTime() + hours * 3_600_000);

let t: TestApp;
let admin: TestUser;
let dev: TestUser;
let staff: TestUser;
let member: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  dev = await t.user('dev');
  staff = await t.user('staff');
  member = await t.user('member', { firstname: 'Sari', lastname: '=SUM(A1)' });
  other = await t.user('member', { firstname: 'Budi', lastname: 'Santoso, "BS"' });
  const db = t.ctx.db;
  await db.insert(levels).values({ name: 'Perak', blastFee: 60, requirementBlast: 5 });
  await db.update(users).set({ accountBank: 'BCA', accountNumber: '1234567890', accountName: 'Sari W', income: 125_000, totalSuccess: 7, blastFee: 70 }).where(eq(users.id, member.id));
  await db.insert(withdrawals).values([
    { userId: member.id, nominal: 50_000, status: 'accepted', createdAt: on('2026-11-30', 23) },
    { userId: member.id, nominal: 20_000, status: 'requested', createdAt: on('2026-12-01', 0) },
    { userId: other.id, nominal: 15_000, status: 'rejected', createdAt: on('2026-12-02', 23.9) },
    { userId: other.id, nominal: 10_000, status: 'requested', createdAt: on('2026-12-03', 0) },
  ]);
  await db.insert(messageLogs).values([
    { userId: member.id, whatsappId: 3, number: '6281311110001', templateId: 1, success: true, income: 70, createdAt: on('2026-12-01', 1) },
    { userId: member.id, whatsappId: 3, number: '6281311110002', templateId: 1, success: false, errorCode: 'not_on_whatsapp', income: 0, createdAt: on('2026-12-01', 2) },
    { userId: other.id, whatsappId: 4, number: '6281311110003', templateId: 2, success: true, income: 55, createdAt: on('2026-12-05', 2) },
  ]);
  await db.insert(auditLog).values([
    { actorId: admin.id, targetUserId: member.id, action: 'bonus.create', details: { nominal: 5000, reason: 'Hadiah, "Desember"' }, createdAt: on('2026-12-01', 3) },
    { actorId: admin.id, targetUserId: other.id, action: 'user.fee', details: { from: 50, to: 55 }, createdAt: on('2026-12-04', 3) },
  ]);
});
afterAll(async () => {
  await t.close();
});

describe('the books exports: roles', () => {
  const calls = [
    ['/api/admin/export/members', ['admin', 'dev']],
    ['/api/admin/export/withdrawals?from=2026-12-01&to=2026-12-02', ['admin']],
    ['/api/admin/export/messagelog?from=2026-12-01&to=2026-12-02', ['admin', 'dev']],
    ['/api/admin/export/audit', ['admin', 'dev']],
  ] as const;
  it('answers the roles of common/api-routes.ts and refuses the others (bank details: admin only)', async () => {
    const who = { admin, dev, staff, member } as const;
    for (const [url, allowed] of calls) {
      for (const [role, user] of Object.entries(who)) {
        const res = await t.http.get(url).set(user.auth);
        expect(res.status, `${role} ${url}`).toBe((allowed as readonly string[]).includes(role) ? 200 : 403);
      }
      expect((await t.http.get(url)).status).toBe(401);
    }
  });
});

describe('the books exports: content', () => {
  it('streams the members as CSV with the spec field names, whole rupiah and cells a spreadsheet cannot run', async () => {
    const res = await t.http.get('/api/admin/export/members').set(dev.auth).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="members.csv"');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    const rows = rowsOf(res.text);
    expect(rows[0]).toEqual(['id', 'firstname', 'lastname', 'email', 'level', 'income', 'createdAt', 'whatsapps', 'blast_interval_min', 'blast_interval_max', 'blast_fee', 'role']);
    expect(rows).toHaveLength(3); // members only: no admin, dev or staff
    const sari = rows.find((r) => r[0] === String(member.id))!;
    expect(sari).toEqual([String(member.id), 'Sari', "'=SUM(A1)", member.row.email, 'Perak', '125000', expect.stringMatching(/^\d{4}-\d\d-\d\dT/), '0', '', '', '70', 'member']);
    expect(rows.find((r) => r[0] === String(other.id))![2]).toBe('Santoso, "BS"');
  });

  it('streams the withdrawals of a WIB date range with the bank details, nothing outside it', async () => {
    const res = await t.http.get('/api/admin/export/withdrawals?from=2026-12-01&to=2026-12-02').set(admin.auth).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="withdrawals_2026-12-01_2026-12-02.csv"');
    const rows = rowsOf(res.text);
    expect(rows[0]).toEqual(['id', 'nominal', 'status', 'createdAt', 'updatedAt', 'user_id', 'firstname', 'lastname', 'email', 'account_bank', 'account_number', 'account_name']);
    expect(rows.slice(1).map((r) => [r[1], r[2]])).toEqual([
      ['20000', 'requested'],
      ['15000', 'rejected'],
    ]);
    expect(rows[1]!.slice(5)).toEqual([String(member.id), 'Sari', "'=SUM(A1)", member.row.email, 'BCA', '1234567890', 'Sari W']);
    expect(rows[1]![3]).toBe(on('2026-12-01', 0).toISOString());
  });

  it('streams the message log of a date range with the income in whole rupiah', async () => {
    const res = await t.http.get('/api/admin/export/messagelog?from=2026-12-01&to=2026-12-01').set(dev.auth).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="message_log_2026-12-01_2026-12-01.csv"');
    const rows = rowsOf(res.text);
    expect(rows[0]).toEqual(['id', 'createdAt', 'user_id', 'whatsapp_id', 'number', 'template_id', 'success', 'error_code', 'income', 'delivery_status']);
    expect(rows.slice(1).map((r) => r.slice(2))).toEqual([
      [String(member.id), '3', '6281311110001', '1', '1', '', '70', ''],
      [String(member.id), '3', '6281311110002', '1', '0', 'not_on_whatsapp', '0', ''],
    ]);
  });

  it('pages through the log in time order: 2,500 rows, many at one moment, each written once', async () => {
    const at = on('2026-12-10', 5);
    const rows = Array.from({ length: 2_500 }, (_, i) => ({
      userId: other.id,
      number: `62813${String(20000000 + i)}`,
      success: true,
      income: 1,
      // Runs of 700 rows share a moment, so pages end inside a run.
      createdAt: new Date(at.getTime() + Math.floor(i / 700) * 1000),
    }));
    for (let i = 0; i < rows.length; i += 500) await t.ctx.db.insert(messageLogs).values(rows.slice(i, i + 500));
    const res = await t.http.get('/api/admin/export/messagelog?from=2026-12-10&to=2026-12-10').set(admin.auth).buffer(true);
    const got = rowsOf(res.text).slice(1);
    expect(got).toHaveLength(2_500);
    expect(new Set(got.map((r) => r[0])).size).toBe(2_500);
    expect(got.map((r) => r[4])).toEqual(rows.map((r) => r.number));
    await t.ctx.db.delete(messageLogs).where(eq(messageLogs.userId, other.id));
  });

  it('streams the audit log, whole or for a range, with its details as JSON', async () => {
    const all = rowsOf((await t.http.get('/api/admin/export/audit').set(admin.auth).buffer(true)).text);
    expect(all[0]).toEqual(['id', 'createdAt', 'actor_id', 'target_user_id', 'action', 'details']);
    expect(all.slice(1).map((r) => r[4])).toEqual(['bonus.create', 'user.fee']);
    expect(JSON.parse(all[1]![5]!)).toEqual({ nominal: 5000, reason: 'Hadiah, "Desember"' });
    const res = await t.http.get('/api/admin/export/audit?from=2026-12-04&to=2026-12-31').set(dev.auth).buffer(true);
    expect(res.headers['content-disposition']).toBe('attachment; filename="audit_log_2026-12-04_2026-12-31.csv"');
    expect(rowsOf(res.text).slice(1).map((r) => r[4])).toEqual(['user.fee']);
  });

  it('refuses a missing, impossible or reversed date range with a field error', async () => {
    for (const q of ['', '?from=2026-12-01', '?from=2026-12-01&to=2026-13-01', '?from=2026-02-30&to=2026-03-01', '?from=1.12.2026&to=2026-12-02']) {
      const res = await t.http.get(`/api/admin/export/messagelog${q}`).set(admin.auth);
      expect(res.status, q).toBe(422);
      expect(res.body.msg).toBe('Choose a date range: from and to, as YYYY-MM-DD.');
      expect(Object.keys(res.body.errors).length).toBeGreaterThan(0);
    }
    const reversed = await t.http.get('/api/admin/export/withdrawals?from=2026-12-05&to=2026-12-01').set(admin.auth);
    expect(reversed.status).toBe(422);
    expect(reversed.body).toMatchObject({ msg: 'The start date must not be after the end date.', errors: { to: 'The start date must not be after the end date.' } });
  });
});
