import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { closeDb, createTestDb, transaction, type Db } from '../../server/src/db/client';
import { one } from '../../server/src/db/raw';
import { messageLogs, messageTemplates, phoneNumbers, proxies, referralCredits, users, whatsapps } from '../../server/src/db/schema';
import { engineStore, type EngineStore, type SendRules, type TickWork } from '../../server/src/engine/store';
import { invariantViolations } from './engine-fixtures';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const rules: SendRules = { fee: () => 40, referral: (income) => Math.floor(income / 10), interval: () => 0 };

let db: Db;
let store: EngineStore;
let accountId: number;
let memberId: number;
let templateId: number;

/** A referred member with one account, `n` targets and one active template. */
async function seed(n: number): Promise<void> {
  const [referrer] = await db.insert(users).values({ firstname: 'Ref', email: 'ref@store.test', passwordHash: 'x', referralCode: 'REF1' }).returning();
  const [member] = await db
    .insert(users)
    .values({ firstname: 'Member', email: 'member@store.test', passwordHash: 'x', referralCode: 'MEM1', referredBy: referrer!.id })
    .returning();
  memberId = member!.id;
  const [account] = await db.insert(whatsapps).values({ deviceId: 'store-1', clientid: 'store-1', userId: memberId, state: 'connected', status: 'sending' }).returning();
  accountId = account!.id;
  const [template] = await db.insert(messageTemplates).values({ text: 'Halo', textWa: 'Halo {name}' }).returning();
  templateId = template!.id;
  await db.insert(phoneNumbers).values(Array.from({ length: n }, (_, i) => ({ number: `62812000100${i}`, name: `N${i}` })));
}

const work = (fields: Partial<TickWork>): TickWork => ({ now: Date.now(), cutoff: Date.now() - 86_400_000, records: [], releases: [], claims: [], window: { codes: [], match: false }, rules, ...fields });

beforeEach(async () => {
  db = await createTestDb();
  store = engineStore(db);
  await seed(3);
});
afterEach(async () => {
  await closeDb(db);
});

describe('the engine store', () => {
  it('records a send in its tick: log, counters, income, referral credit, released claim, next claim', async () => {
    const first = await store.tick(work({ claims: [accountId] }));
    const target = first.claims[0]!;
    expect(target).not.toBeNull();
    const done = await store.tick(
      work({ records: [{ accountId, userId: memberId, target, templateId, success: true, errorCode: null, claimNext: true }] }),
    );
    const rec = done.records[0]!;
    expect(rec).toMatchObject({ income: 40, interval: 0 });
    expect(rec.account?.count_success).toBe(1);
    expect(rec.target).toMatchObject({ id: target.id, in_use: 0, count_success: 1 });
    expect(rec.next).not.toBeNull();
    expect(rec.next!.id).not.toBe(target.id);
    expect(await db.select({ amount: referralCredits.amount }).from(referralCredits)).toEqual([{ amount: 4 }]);
    expect((await one(db.select().from(users).where(eq(users.id, memberId))))?.income).toBe(40);
    // The next claim is held; once it is released every counter equals the log.
    await store.tick(work({ releases: [rec.next!.id] }));
    expect(await invariantViolations(db, 10)).toEqual([]);
  });

  it('records a Cloud API send as accepted and unpaid: Meta\'s message id, delivery status sent, no income or referral credit yet', async () => {
    const first = await store.tick(work({ claims: [accountId] }));
    const target = first.claims[0]!;
    const now = Date.now();
    const done = await store.tick(
      work({
        now,
        records: [{ accountId, userId: memberId, target, templateId, success: true, errorCode: null, claimNext: false, payOnDelivery: true, messageId: 'wamid.HBgL123' }],
      }),
    );
    expect(done.records[0]).toMatchObject({ income: 0, referrerId: null });
    expect(done.records[0]!.account?.count_success).toBe(1);
    const log = await one(db.select().from(messageLogs).where(eq(messageLogs.phoneNumberId, target.id)));
    expect(log).toMatchObject({ success: true, income: 0, waMessageId: 'wamid.HBgL123', deliveryStatus: 'sent', deliveryError: null });
    expect(log?.statusAt?.getTime()).toBe(now);
    expect(await db.select().from(referralCredits)).toEqual([]);
    expect((await one(db.select().from(users).where(eq(users.id, memberId))))?.income).toBe(0);
    expect(await invariantViolations(db, 10)).toEqual([]);
  });

  it('writes all of a tick or none of it: a failing record takes the claims of the same tick back', async () => {
    const first = await store.tick(work({ claims: [accountId] }));
    const target = first.claims[0]!;
    const failing: SendRules = {
      ...rules,
      fee: () => {
        throw new Error('rule failed');
      },
    };
    await expect(
      store.tick(work({ rules: failing, records: [{ accountId, userId: memberId, target, templateId, success: true, errorCode: null, claimNext: false }], claims: [accountId] })),
    ).rejects.toThrow('rule failed');
    expect(await db.select().from(messageLogs)).toEqual([]);
    const held = await db.select({ id: phoneNumbers.id }).from(phoneNumbers).where(eq(phoneNumbers.inUse, 1));
    // Only the claim of the earlier tick is held: the failed tick's claim was rolled back with its record.
    expect(held).toEqual([{ id: target.id }]);
    expect((await one(db.select().from(whatsapps).where(eq(whatsapps.id, accountId))))?.countSuccess).toBe(0);
  });

  it("waits for another caller's open transaction instead of joining it, so that caller's rollback takes nothing of the tick", async () => {
    const other = transaction(db, async (tx) => {
      await tx.insert(proxies).values({ value: 'rolled:1' });
      await pause(40);
      throw new Error('rolled back');
    });
    await pause(5);
    const ticked = store.tick(work({ claims: [accountId] }));
    await expect(other).rejects.toThrow('rolled back');
    const done = await ticked;
    const claimed = done.claims[0]!;
    expect(claimed).not.toBeNull();
    expect((await one(db.select().from(phoneNumbers).where(eq(phoneNumbers.id, claimed.id))))?.inUse).toBe(1);
    expect(await db.select().from(proxies)).toEqual([]);
  });

  it('releases the claims a dead process left, counting the number as messaged but not as sent', async () => {
    const done = await store.tick(work({ claims: [accountId, accountId] }));
    const now = Date.now();
    const released = await store.releaseAbandoned(now);
    expect(released.map((r) => r.id).sort()).toEqual(done.claims.map((c) => c!.id).sort());
    expect(released.every((r) => r.in_use === 0 && r.last_sent === now && r.count_success === 0)).toBe(true);
    expect(await invariantViolations(db)).toEqual([]);
    expect((await store.sendingAccounts(0, 10)).map((a) => a.id)).toEqual([accountId]);
  });
});
