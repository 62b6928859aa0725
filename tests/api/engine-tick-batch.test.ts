import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type pg from 'pg';
import { closeDb, createTestDb, type Db } from '../../server/src/db/client';
import { isPostgres } from '../../server/src/db/postgres';
import { messageLogs, phoneNumbers, referralCredits, users, whatsapps } from '../../server/src/db/schema';
import { engineStore, type EngineStore, type SendRules, type TickWork } from '../../server/src/engine/store';
import { feeOn } from '../../server/src/engine/snapshot';
import { TICK_BEGIN, tickStatements } from '../../server/src/db/pg/tick';
import { addTemplate } from './engine-fixtures';

/**
 * Many sends in one tick, on the database under test: on PostgreSQL they are written by a fixed number
 * of set-based statements, and what is paid, counted and logged is what one send after another gives.
 */

// Levels: 50 from 0 successes, 75 from 2; the referral is 10 %; intervals are drawn in order (1, 2, 3…).
const levels = [
  { blast_fee: 50, requirement_blast: 0 },
  { blast_fee: 75, requirement_blast: 2 },
];
const snap = { settings: { interval_min: 0, interval_max: 0, price: 25, referral_percent: 10, recipient_cooldown_hours: 24, send_from: '00:00', send_to: '00:00', time_zone: 'Asia/Jakarta' }, levels, templates: [] };
function rulesInOrder(): SendRules {
  let drawn = 0;
  return { fee: (member) => feeOn(snap, member), referral: (income) => Math.floor(income / 10), interval: () => (drawn += 1) };
}

let db: Db;
let store: EngineStore;
let referrer: number;
let ann: number;
let bob: number;
const accounts: number[] = [];
let templateId: number;

async function member(email: string, code: string, referredBy: number | null, totalSuccess: number, role: 'member' | 'admin' = 'member') {
  const [row] = await db.insert(users).values({ firstname: code, email, passwordHash: 'x', referralCode: code, referredBy, totalSuccess, role }).returning();
  return row!.id;
}

beforeEach(async () => {
  db = await createTestDb();
  store = engineStore(db);
  referrer = await member('ref@tick.test', 'REF', null, 0);
  const admin = await member('adm@tick.test', 'ADM', null, 0, 'admin');
  // Ann has 1 success so far and a member referrer; Bob's referrer is an admin (no credit).
  ann = await member('ann@tick.test', 'ANN', referrer, 1);
  bob = await member('bob@tick.test', 'BOB', admin, 0);
  accounts.length = 0;
  for (const [i, owner] of [ann, ann, bob].entries()) {
    const [row] = await db.insert(whatsapps).values({ deviceId: `tick-${i}`, clientid: `tick-${i}`, userId: owner, state: 'connected', status: 'sending' }).returning();
    accounts.push(row!.id);
  }
  templateId = (await addTemplate(db)).id;
  await db.insert(phoneNumbers).values(Array.from({ length: 12 }, (_, i) => ({ number: `6281200020${String(i).padStart(2, '0')}`, name: `N${i}` })));
});
afterEach(async () => {
  await closeDb(db);
});

const work = (fields: Partial<TickWork>): TickWork => ({ now: Date.now(), cutoff: Date.now() - 86_400_000, records: [], releases: [], claims: [], window: { codes: [], match: false }, rules: rulesInOrder(), ...fields });

describe('a tick of many sends', () => {
  it('prices each send on the member as the sends before it left it, and counts, logs and credits each one', async () => {
    const first = await store.tick(work({ claims: [accounts[0]!, accounts[1]!, accounts[2]!, accounts[0]!, accounts[2]!] }));
    // Never-sent numbers in id order, one each, in the order asked.
    const ids = first.claims.map((c) => c!.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(5);
    const [t0, t1, t2, t3, t4] = first.claims.map((c) => c!);
    const send = (accountId: number, userId: number, target: typeof t0, success: boolean) => ({
      accountId,
      userId,
      target: target!,
      templateId,
      success,
      errorCode: success ? null : 'failed',
      claimNext: true,
    });
    const done = await store.tick(
      work({
        records: [
          send(accounts[0]!, ann, t0, true),
          send(accounts[1]!, ann, t1, true),
          send(accounts[0]!, ann, t3, false),
          send(accounts[1]!, ann, t2, true),
          send(accounts[2]!, bob, t4, true),
        ],
      }),
    );
    // Ann: 1 success before → 50, then 2 → 75, a failure, then 3 → 75. Bob: 0 → 50, no credit (admin referrer).
    expect(done.records.map((r) => r.income)).toEqual([50, 75, 0, 75, 50]);
    expect(done.records.map((r) => r.referrerId)).toEqual([referrer, referrer, null, referrer, null]);
    expect(done.records.map((r) => r.interval)).toEqual([1, 2, 3, 4, 5]);
    // Each send sees its account's row as it left it: account 0 had a success then a failure.
    expect(done.records.map((r) => [r.account!.count_success, r.account!.count_fail, r.account!.income])).toEqual([
      [1, 0, 50],
      [1, 0, 75],
      [1, 1, 50],
      [2, 0, 150],
      [1, 0, 50],
    ]);
    expect(done.records.map((r) => r.target!.in_use)).toEqual([0, 0, 0, 0, 0]);
    // Intervals were not 0: nothing claimed with the records.
    expect(done.records.map((r) => r.next)).toEqual([null, null, null, null, null]);
    const logs = await db.select().from(messageLogs).orderBy(asc(messageLogs.id));
    expect(logs.map((l) => [l.phoneNumberId, l.income, l.success])).toEqual([
      [t0!.id, 50, true],
      [t1!.id, 75, true],
      [t3!.id, 0, false],
      [t2!.id, 75, true],
      [t4!.id, 50, true],
    ]);
    const credits = await db.select().from(referralCredits).orderBy(asc(referralCredits.id));
    expect(credits.map((c) => [c.messageLogId, c.amount, c.referrerId, c.referredId])).toEqual([
      [logs[0]!.id, 5, referrer, ann],
      [logs[1]!.id, 7, referrer, ann],
      [logs[3]!.id, 7, referrer, ann],
    ]);
    const annRow = (await db.select().from(users).where(eq(users.id, ann)))[0]!;
    // Ann started at 1 success with no log row of it, and Bob's referrer is no member: the books are checked
    // here rather than by the log-wide invariants.
    expect([annRow.totalSuccess, annRow.totalFail, annRow.income]).toEqual([4, 1, 200]);
    const numbers = await db.select().from(phoneNumbers).orderBy(asc(phoneNumbers.id));
    expect(numbers.filter((p) => p.countSuccess + p.countFail > 0).map((p) => [p.id, p.countSuccess, p.countFail, p.inUse])).toEqual(
      [t0!, t1!, t2!, t3!, t4!].map((t) => [t.id, t === t3 ? 0 : 1, t === t3 ? 1 : 0, 0]).sort((a, b) => a[0]! - b[0]!),
    );
  });

  it('hands the numbers never sent first, then the longest cooled, distinct numbers to distinct accounts', async () => {
    const now = Date.now();
    // Every number but two was sent: one long ago, one recently (still cooling down).
    const all = await db.select().from(phoneNumbers).orderBy(asc(phoneNumbers.id));
    for (const [i, p] of all.entries()) if (i >= 2) await db.update(phoneNumbers).set({ lastSent: new Date(i === 5 ? now - 3_600_000 : now - 90_000_000 - i * 1000) }).where(eq(phoneNumbers.id, p.id));
    const done = await store.tick(work({ now, claims: [accounts[0]!, accounts[1]!, accounts[2]!] }));
    // The two fresh ones by id, then the one sent longest ago (the highest index here).
    expect(done.claims.map((c) => c!.id)).toEqual([all[0]!.id, all[1]!.id, all[11]!.id]);
    const claimed = await db.select({ id: phoneNumbers.id, by: phoneNumbers.claimedBy }).from(phoneNumbers).where(eq(phoneNumbers.inUse, 1));
    expect(claimed.sort((a, b) => a.id - b.id)).toEqual([
      { id: all[0]!.id, by: accounts[0] },
      { id: all[1]!.id, by: accounts[1] },
      { id: all[11]!.id, by: accounts[2] },
    ]);
  });

  it('writes a tick of ten sends and their next claims with three statements on PostgreSQL', async (ctx) => {
    if (!isPostgres(db)) return ctx.skip();
    const pool = db.$client as unknown as pg.Pool;
    await db.insert(phoneNumbers).values(Array.from({ length: 20 }, (_, i) => ({ number: `6281200030${String(i).padStart(2, '0')}`, name: `M${i}` })));
    const claimers = Array.from({ length: 10 }, (_, i) => accounts[i % 3]!);
    const first = await store.tick(work({ claims: claimers }));
    const c = await pool.connect();
    let statements = 0;
    const counting = { query: ((...args: Parameters<pg.PoolClient['query']>) => ((statements += 1), (c.query as (...a: unknown[]) => unknown)(...args))) as pg.PoolClient['query'] };
    try {
      await c.query(TICK_BEGIN);
      const done = await tickStatements(counting, {
        ...work({}),
        records: first.claims.map((t, i) => ({ accountId: claimers[i]!, userId: i % 3 === 2 ? bob : ann, target: t!, templateId, success: true, errorCode: null, claimNext: true })),
        releases: [],
        claims: [accounts[2]!],
        rules: { fee: () => 40, referral: () => 4, interval: () => 0 },
      });
      await c.query('COMMIT');
      expect(done.records).toHaveLength(10);
      expect(done.records.every((r) => r.next !== null)).toBe(true);
      expect(done.claims[0]).not.toBeNull();
    } finally {
      c.release();
    }
    // Members, record, claim (no release asked): the same whatever the number of sends.
    expect(statements).toBe(3);
    expect((await db.select().from(messageLogs)).length).toBe(10);
  });
});
