import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { whatsapps } from '../../server/src/db/schema';
import { accountCountViolations } from './engine-fixtures';

let t: TestApp;
let admin: TestUser;
let member: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [admin, member, other] = await Promise.all([t.user('admin'), t.user('member'), t.user('member')]);
});
afterAll(() => t.close());

const counts = async (u: TestUser, who: string) => (await t.http.get(`/api/admin/whatsapp/count/${who}`).set(u.auth).expect(200)).body;

describe('whatsapp_counts', () => {
  it('stays equal to a recount of the accounts through links, state changes, suspensions, moves and deletes', async () => {
    const row = (userId: number, i: number, state: string | null) => ({ deviceId: `wc-${i}`, clientid: `wc-${i}`, userId, state });
    const added = await t.ctx.db
      .insert(whatsapps)
      .values([row(member.id, 1, 'connected'), row(member.id, 2, 'sending'), row(member.id, 3, 'disconnected'), row(other.id, 4, null), row(other.id, 5, 'connected')])
      .returning({ id: whatsapps.id });
    const [a1, a2, a3, a4, a5] = added.map((r) => r.id) as [number, number, number, number, number];
    expect(await accountCountViolations(t.ctx.db)).toEqual([]);
    expect(await counts(admin, 'all')).toEqual({ connectedCount: 3, disconnectedCount: 2 });
    expect(await counts(member, String(member.id))).toEqual({ connectedCount: 2, disconnectedCount: 1 });

    await t.ctx.db.update(whatsapps).set({ suspended: true }).where(eq(whatsapps.id, a1));
    await t.ctx.db.update(whatsapps).set({ state: 'connected' }).where(eq(whatsapps.id, a3));
    await t.ctx.db.update(whatsapps).set({ state: 'loggedOut' }).where(eq(whatsapps.id, a5));
    // A change that does not touch the figures (the engine's counters) moves nothing.
    await t.ctx.db.update(whatsapps).set({ countSuccess: 5 }).where(eq(whatsapps.id, a2));
    expect(await accountCountViolations(t.ctx.db)).toEqual([]);
    expect(await counts(admin, 'all')).toEqual({ connectedCount: 2, disconnectedCount: 3 });

    // An account moved to another member, then deletes.
    await t.ctx.db.update(whatsapps).set({ userId: other.id }).where(eq(whatsapps.id, a2));
    expect(await counts(other, String(other.id))).toEqual({ connectedCount: 1, disconnectedCount: 2 });
    await t.ctx.db.delete(whatsapps).where(inArray(whatsapps.id, [a2, a4]));
    expect(await accountCountViolations(t.ctx.db)).toEqual([]);
    expect(await counts(admin, 'all')).toEqual({ connectedCount: 1, disconnectedCount: 2 });
    expect(await counts(other, String(other.id))).toEqual({ connectedCount: 0, disconnectedCount: 1 });
  });
});
