import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { connected, startTestApp, type TestApp } from '../helpers';
import { settings } from '../../server/src/db/schema';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('profile', () => {
  it('saves names and bank details; the bank must be one of settings.bank_names', async () => {
    const m = await t.user('member');
    const res = await t.http
      .put(`/api/admin/users/${m.id}`)
      .set(m.auth)
      .send({ firstname: 'Dian', lastname: 'Putri', account_bank: 'MANDIRI', account_number: '123-456 789', account_name: 'Dian Putri' });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ firstname: 'Dian', lastname: 'Putri', account_bank: 'MANDIRI', account_number: '123456789', account_name: 'Dian Putri' });
    expect(res.body.token).toBeUndefined();
    const bad = await t.http.put(`/api/admin/users/${m.id}`).set(m.auth).send({ account_bank: 'BANK PALSU' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.account_bank).toBe('Bank tidak tersedia.');
    const letters = await t.http.put(`/api/admin/users/${m.id}`).set(m.auth).send({ account_number: '12ab' });
    expect(letters.body.errors.account_number).toBeTruthy();
    const empty = await t.http.put(`/api/admin/users/${m.id}`).set(m.auth).send({ firstname: '' });
    expect(empty.status).toBe(422);
    // A bank taken off the list later stays valid for whoever already has it.
    await t.ctx.db.update(settings).set({ bankNames: 'BCA, BRI' }).where(eq(settings.id, 1));
    expect((await t.http.put(`/api/admin/users/${m.id}`).set(m.auth).send({ account_bank: 'MANDIRI', firstname: 'Dian' })).status).toBe(200);
    await t.ctx.db.update(settings).set({ bankNames: 'BCA, MANDIRI, BRI' }).where(eq(settings.id, 1));
  });

  it('a password change answers a fresh token, ends the other sessions and their sockets', async () => {
    const m = await t.user('member');
    const s = t.socket(m.token);
    await connected(s);
    const closed = new Promise<void>((resolve) => s.once('disconnect', () => resolve()));
    const res = await t.http.put(`/api/admin/users/${m.id}`).set(m.auth).send({ firstname: 'Tetap', password: 'passwordbaru1' });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
    await closed;
    expect((await t.http.get(`/api/admin/users/${m.id}`).set(m.auth)).status).toBe(401);
    const fresh = await t.http.get(`/api/admin/users/${m.id}`).set('Authorization', `Bearer ${res.body.token}`);
    expect(fresh.status).toBe(200);
    expect(fresh.body.user.firstname).toBe('Tetap');
  });

  it('an empty password is not a change', async () => {
    const m = await t.user('member');
    const res = await t.http.put(`/api/admin/users/${m.id}`).set(m.auth).send({ firstname: 'Sama', password: '' });
    expect(res.status).toBe(200);
    expect(res.body.token).toBeUndefined();
    expect((await t.http.get(`/api/admin/users/${m.id}`).set(m.auth)).status).toBe(200);
  });

  it('staff edit their own profile only', async () => {
    const staff = await t.user('staff');
    const other = await t.user('member');
    expect((await t.http.put(`/api/admin/users/${staff.id}`).set(staff.auth).send({ lastname: 'Baru' })).status).toBe(200);
    expect((await t.http.put(`/api/admin/users/${other.id}`).set(staff.auth).send({ lastname: 'Baru' })).status).toBe(403);
  });
});
