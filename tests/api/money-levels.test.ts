import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { levels, settings } from '../../server/src/db/schema';
import { earn } from './money-fixtures';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  await t.ctx.db.update(settings).set({ colors: '#111111, #222222, #333333', price: 40 }).where(eq(settings.id, 1));
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, who: TestUser = admin) => t.http.post('/api/admin/level/create').set(who.auth).send(body);

describe('levels', () => {
  it('create, read, edit and delete with all fields required', async () => {
    const bad = await create({});
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['blast_fee', 'name', 'requirement_blast']);
    expect((await create({ name: 'X', blast_fee: 'abc', requirement_blast: 1 })).body.errors.blast_fee).toBeTruthy();
    expect((await create({ name: 'X', blast_fee: 10, requirement_blast: -1 })).body.errors.requirement_blast).toBeTruthy();

    const made = await create({ name: 'Perunggu', blast_fee: '50', requirement_blast: '0' });
    expect(made.status).toBe(201);
    expect(made.body.level).toMatchObject({ name: 'Perunggu', blast_fee: 50, requirement_blast: 0 });
    const id = made.body.level.id as number;
    expect((await t.http.get(`/api/admin/level/${id}`).set(admin.auth)).body.level.name).toBe('Perunggu');

    const edited = await t.http.put(`/api/admin/level/${id}`).set(admin.auth).send({ name: 'Bronze', blast_fee: 55, requirement_blast: 0 });
    expect(edited.status).toBe(200);
    expect(edited.body.level).toMatchObject({ name: 'Bronze', blast_fee: 55 });
    expect((await t.http.put(`/api/admin/level/${id}`).set(admin.auth).send({ name: '' })).status).toBe(422);

    const dup = await create({ name: 'Kembar', blast_fee: 1, requirement_blast: 0 });
    expect(dup.status).toBe(409);
    expect(dup.body.errors.requirement_blast).toBeTruthy();

    expect((await t.http.delete(`/api/admin/level/${id}`).set(admin.auth)).status).toBe(200);
    expect((await t.http.get(`/api/admin/level/${id}`).set(admin.auth)).status).toBe(404);
    expect((await t.http.delete(`/api/admin/level/${id}`).set(admin.auth)).status).toBe(404);
  });

  it('the list is paged by 10 in order of requirement, each with its colour', async () => {
    await t.ctx.db.delete(levels);
    for (let i = 11; i >= 0; i--) await create({ name: `L${i}`, blast_fee: 10 + i, requirement_blast: i * 100 }).expect(201);
    const p1 = await t.http.get('/api/admin/level/list-per-page?page=1').set(admin.auth);
    expect(p1.body.data).toHaveLength(10);
    expect(p1.body.meta).toMatchObject({ total: 12, totalPages: 2 });
    expect(p1.body.data.slice(0, 4).map((l: { name: string; color: string }) => [l.name, l.color])).toEqual([
      ['L0', '#111111'],
      ['L1', '#222222'],
      ['L2', '#333333'],
      ['L3', '#111111'],
    ]);
    const p2 = await t.http.get('/api/admin/level/list-per-page?page=2').set(admin.auth);
    expect(p2.body.data.map((l: { name: string; color: string }) => [l.name, l.color])).toEqual([
      ['L10', '#222222'],
      ['L11', '#333333'],
    ]);
  });

  it('a member\'s level is the highest requirement not above their successful messages; fee follows it', async () => {
    await t.ctx.db.delete(levels);
    await create({ name: 'Bronze', blast_fee: 50, requirement_blast: 0 }).expect(201);
    await create({ name: 'Silver', blast_fee: 75, requirement_blast: 10 }).expect(201);
    await create({ name: 'Gold', blast_fee: 100, requirement_blast: 25 }).expect(201);
    const m = await t.user('member');
    const level = async () => {
      const detail = await t.http.get(`/api/admin/users/${m.id}`).set(m.auth);
      const fee = await t.http.get(`/api/admin/users/blast-fee/${m.id}`).set(m.auth);
      return [detail.body.level, detail.body.color, fee.body.blast_fee];
    };
    expect(await level()).toEqual(['Bronze', '#111111', 50]);
    await earn(t.ctx.db, m.id, 9, 50);
    expect(await level()).toEqual(['Bronze', '#111111', 50]);
    await earn(t.ctx.db, m.id, 1, 50);
    expect(await level()).toEqual(['Silver', '#222222', 75]);
    await earn(t.ctx.db, m.id, 15, 75);
    expect(await level()).toEqual(['Gold', '#333333', 100]);
    const list = await t.http.get(`/api/admin/users/members-per-page?page=1&search=${encodeURIComponent(m.row.email)}`).set(admin.auth);
    expect(list.body.data[0]).toMatchObject({ level: { name: 'Gold', color: '#333333' }, income: 9 * 50 + 50 + 15 * 75 });
    // The member's own fee wins over the level; without levels, settings.price applies.
    await t.http.put(`/api/admin/users/${m.id}`).set(admin.auth).send({ blast_fee: 130 }).expect(200);
    expect((await level())[2]).toBe(130);
    await t.http.put(`/api/admin/users/${m.id}`).set(admin.auth).send({ blast_fee: 0 }).expect(200);
    await t.ctx.db.delete(levels);
    expect(await level()).toEqual([null, null, 40]);
  });

  it('only admin and dev manage levels', async () => {
    const dev = await t.user('dev');
    expect((await create({ name: 'Dev', blast_fee: 1, requirement_blast: 999 }, dev)).status).toBe(201);
    for (const role of ['member', 'staff'] as const) {
      const u = await t.user(role);
      expect((await create({ name: role, blast_fee: 1, requirement_blast: 5000 }, u)).status, role).toBe(403);
      expect((await t.http.get('/api/admin/level/list-per-page').set(u.auth)).status, role).toBe(403);
    }
  });
});
