import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { bonuses } from '../../server/src/db/schema';

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
});
