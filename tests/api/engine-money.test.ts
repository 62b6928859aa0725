import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { one } from '../../server/src/db/raw';
import { eq } from 'drizzle-orm';
import { connected, nextMessage, startTestApp, type TestApp, type TestUser } from '../helpers';
import { levels, messageLogs, phoneNumbers, referralCredits, users } from '../../server/src/db/schema';
import { engineFor } from '../../server/src/engine/engine';
import { feeOn, readSnapshot } from '../../server/src/engine/snapshot';
import { feeFor } from '../../server/src/money/levels';
import { creditReferral } from '../../server/src/money/referral';
import { linkByQr, type LinkedAccount } from './whatsapp-fixtures';
import { addTargets, addTemplate, invariantViolations, setRules, startBlast, untilIdle } from './engine-fixtures';

let t: TestApp;
let referrer: TestUser;
let member: TestUser;
let account: LinkedAccount;

beforeAll(async () => {
  t = await startTestApp();
  referrer = await t.user('member');
  member = await t.user('member', { referredBy: referrer.id });
  account = await linkByQr(t, member, { phonenumber: '6281277770001' });
  await addTemplate(t.ctx.db);
  await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, price: 40, referralPercent: 0 });
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

let batch = 0;
/** Blasts `n` fresh numbers and answers the incomes of the new log rows in send order. */
async function blast(n: number): Promise<number[]> {
  const before = (await t.ctx.db.select().from(messageLogs)).length;
  await addTargets(t, n, batch);
  batch += n;
  await startBlast(t, member, account.id);
  await untilIdle(t, member, account.id);
  return (await t.ctx.db.select().from(messageLogs).orderBy(messageLogs.id)).slice(before).map((l) => l.income);
}

const memberRow = async () => (await one(t.ctx.db.select().from(users).where(eq(users.id, member.id))))!;

beforeEach(async () => {
  await t.ctx.db.delete(levels);
  await t.ctx.db.update(users).set({ blastFee: null }).where(eq(users.id, member.id));
  await setRules(t.ctx.db, { price: 40, referralPercent: 0 });
});

describe('income of a blast', () => {
  it('pays the settings price when the member has no fee and no level applies', async () => {
    const incomes = await blast(3);
    expect(incomes).toEqual([40, 40, 40]);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it("pays the member's own fee before anything else", async () => {
    await t.ctx.db.insert(levels).values({ name: 'Bronze', blastFee: 10, requirementBlast: 0 });
    await t.ctx.db.update(users).set({ blastFee: 125 }).where(eq(users.id, member.id));
    expect(await blast(2)).toEqual([125, 125]);
  });

  it("pays the level's fee, and the next level's once the success count reaches its requirement", async () => {
    const done = (await memberRow()).totalSuccess;
    await t.ctx.db
      .insert(levels)
      .values([
        { name: 'Bronze', blastFee: 50, requirementBlast: 0 },
        { name: 'Silver', blastFee: 75, requirementBlast: done + 2 },
      ]);
    // Successes so far: done, done+1 → Bronze; done+2, done+3 → Silver.
    expect(await blast(4)).toEqual([50, 50, 75, 75]);
    const m = (await memberRow());
    const logged = (await t.ctx.db.select().from(messageLogs));
    expect(m.income).toBe(logged.reduce((s, l) => s + l.income, 0));
    // The dashboards read the same figures.
    const counts = await t.http.get(`/api/admin/messagelog/count/${member.id}`).set(member.auth);
    expect(counts.body).toEqual({ successCount: logged.filter((l) => l.success).length, failCount: logged.filter((l) => !l.success).length });
    const today = await t.http.get(`/api/admin/messagelog/today-income/${member.id}`).set(member.auth);
    expect(today.body.income).toBe(m.income);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it('credits the referrer floor(income × percent / 100) for each earning', async () => {
    await t.ctx.db.update(users).set({ blastFee: 333 }).where(eq(users.id, member.id));
    await setRules(t.ctx.db, { referralPercent: 7 });
    const before = (await t.ctx.db.select().from(referralCredits)).length;
    const socket = t.socket(referrer.token);
    await connected(socket);
    const pushed = nextMessage<{ balance: number; totalReferral: number }>(socket, String(referrer.id), (m) => m.event === 'balance', 5000);
    expect(await blast(3)).toEqual([333, 333, 333]);
    // The referrer's open dashboard hears of the new balance (at most once a second).
    expect((await pushed).data).toMatchObject({ balance: 69, totalReferral: 69 });
    const credits = (await t.ctx.db.select().from(referralCredits)).slice(before);
    expect(credits.map((c) => c.amount)).toEqual([23, 23, 23]); // floor(333 × 7 / 100)
    expect(credits.every((c) => c.referrerId === referrer.id && c.referredId === member.id)).toBe(true);
    const balance = await t.http.get(`/api/admin/withdraw/balance/${referrer.id}`).set(referrer.auth);
    expect(balance.status).toBe(200);
    expect(balance.body.balance).toBe(69);
  });

  it('credits nothing once the referrer is no longer a member', async () => {
    await t.ctx.db.update(users).set({ blastFee: 333 }).where(eq(users.id, member.id));
    await setRules(t.ctx.db, { referralPercent: 7 });
    await t.ctx.db.update(users).set({ role: 'staff' }).where(eq(users.id, referrer.id));
    try {
      const before = (await t.ctx.db.select().from(referralCredits)).length;
      expect(await blast(2)).toEqual([333, 333]);
      expect((await t.ctx.db.select().from(referralCredits)).length).toBe(before);
      // The delivery-paid path (Cloud API webhooks) follows the same rule.
      expect(await creditReferral(t.ctx.db, member.id, 333, null)).toBeNull();
    } finally {
      await t.ctx.db.update(users).set({ role: 'member' }).where(eq(users.id, referrer.id));
    }
  });

  it('uses the same fee rule as the money area for every success count', async () => {
    await t.ctx.db
      .insert(levels)
      .values([
        { name: 'A', blastFee: 11, requirementBlast: 0 },
        { name: 'B', blastFee: 22, requirementBlast: 10 },
        { name: 'C', blastFee: 33, requirementBlast: 25 },
      ]);
    const snap = await readSnapshot(engineFor(t.ctx).store);
    for (const blastFee of [null, 0, 99]) {
      for (let total = 0; total < 40; total++) {
        expect(feeOn(snap, { blast_fee: blastFee, total_success: total })).toBe(await feeFor(t.ctx.db, { blastFee, totalSuccess: total }));
      }
    }
    await t.ctx.db.delete(levels);
    const bare = await readSnapshot(engineFor(t.ctx).store);
    expect(feeOn(bare, { blast_fee: null, total_success: 5 })).toBe(await feeFor(t.ctx.db, { blastFee: null, totalSuccess: 5 }));
    expect((await t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.inUse, 1)))).toEqual([]);
  });
});
