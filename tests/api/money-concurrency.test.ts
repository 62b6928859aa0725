import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { bonuses, levels } from '../../server/src/db/schema';
import { earn, setBank } from './money-fixtures';

// Races on the rules that hold money or decide fees. On SQLite the connection gate serialises them; these
// tests matter most with DATABASE_URL=postgres://…, where they run as truly concurrent transactions.
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

describe('concurrent money changes', () => {
  it('40 bonuses sent at once to one member are all made, none refused by a lost race', async () => {
    const m = await t.user('member');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.http.post('/api/admin/bonus/create').set(admin.auth).send({ userId: m.id, nominal: 100, reason: `serentak ${i}` })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 40 }, () => 201));
    expect(await t.ctx.db.select().from(bonuses).where(eq(bonuses.userId, m.id))).toHaveLength(40);
    expect((await t.http.get(`/api/admin/withdraw/balance/${m.id}`).set(admin.auth)).body.balance).toBe(4000);
  });

  it('20 withdrawal requests within the balance sent at once, then decided and reopened at once: every one is answered as asked', async () => {
    const m = await t.user('member');
    await setBank(t.ctx.db, m.id);
    await earn(t.ctx.db, m.id, 300, 1000);
    const requests = await Promise.all(Array.from({ length: 20 }, () => t.http.post('/api/admin/withdraw/request').set(m.auth).send({ nominal: 10000 })));
    expect(requests.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 201));
    const ids = requests.map((r) => r.body.withdraw.id as number);
    const move = (id: number, status: string) => t.http.put('/api/admin/withdraw/update').set(admin.auth).send({ id, status });
    const decisions = await Promise.all(ids.map((id, i) => move(id, i % 2 ? 'accepted' : 'rejected')));
    expect(decisions.map((r) => r.status)).toEqual(ids.map(() => 200));
    const reopened = await Promise.all(ids.filter((_, i) => i % 2 === 0).map((id) => move(id, 'requested')));
    expect(reopened.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect((await t.http.get(`/api/admin/withdraw/balance/${m.id}`).set(admin.auth)).body.balance).toBe(100000);
  });
});

describe('concurrent level saves', () => {
  it('ten levels saved at once with one requirement: one is made, the others are refused with 409', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.http.post('/api/admin/level/create').set(admin.auth).send({ name: `Balapan ${i}`, blast_fee: 10, requirement_blast: 777 })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, ...Array.from({ length: 9 }, () => 409)]);
    expect(await t.ctx.db.select().from(levels).where(eq(levels.requirementBlast, 777))).toHaveLength(1);
  });

  it('ten levels edited at once to one requirement: only one of them gets it', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push((await t.http.post('/api/admin/level/create').set(admin.auth).send({ name: `Sunting ${i}`, blast_fee: 10, requirement_blast: 1000 + i }).expect(201)).body.level.id);
    }
    const answers = await Promise.all(ids.map((id) => t.http.put(`/api/admin/level/${id}`).set(admin.auth).send({ name: `Sunting ${id}`, blast_fee: 10, requirement_blast: 2000 })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array.from({ length: 9 }, () => 409)]);
    expect(await t.ctx.db.select().from(levels).where(eq(levels.requirementBlast, 2000))).toHaveLength(1);
  });
});
