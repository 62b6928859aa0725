import { eq, sql } from 'drizzle-orm';
import { transaction, type Db } from '../server/src/db/client';
import { one } from '../server/src/db/raw';
import { auditLog, bonuses, messageLogs, users, whatsapps, withdrawals } from '../server/src/db/schema';
import { auditedAccount, type AuditAction } from '../server/src/audit/service';
import { feeFor } from '../server/src/money/levels';
import { creditReferral } from '../server/src/money/referral';
import { demoSeeders } from './registry';

const DAY = 24 * 60 * 60 * 1000;

/** A small deterministic generator, so every fresh demo database holds the same figures. */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/**
 * Send attempts recorded as the blast engine records them: per attempt one message-log row with
 * the fee the member earned at that moment, the member's running totals (and their first account's,
 * when one exists), and the referrer's credit, all in one transaction.
 */
async function recordHistory(db: Db, userId: number, successes: number, failures: number, days: number, seed: number): Promise<void> {
  const rand = lcg(seed);
  const account = await one(db.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.userId, userId)).orderBy(whatsapps.id).limit(1));
  const total = successes + failures;
  const start = Date.now() - days * DAY;
  const attempts = Array.from({ length: total }, (_, i) => ({
    // Exactly `failures` failed attempts, spread evenly.
    success: Math.floor(((i + 1) * failures) / total) === Math.floor((i * failures) / total),
    at: start + Math.floor(((i + rand()) / total) * days * DAY),
  }));
  await transaction(db, async (tx) => {
    for (const a of attempts) {
      const member = await one(tx.select().from(users).where(eq(users.id, userId)).limit(1));
      if (!member) return;
      const success = a.success;
      const income = success ? await feeFor(tx, member) : 0;
      const [log] = await tx
        .insert(messageLogs)
        .values({
          userId,
          whatsappId: account?.id ?? null,
          number: `62812${String(3000000 + Math.floor(rand() * 6999999))}`,
          success,
          errorCode: success ? null : 'NOT_DELIVERED',
          income,
          createdAt: new Date(Math.min(a.at, Date.now() - 60_000)),
        })
        .returning({ id: messageLogs.id });
      await tx
        .update(users)
        .set(success ? { totalSuccess: sql`${users.totalSuccess} + 1`, income: sql`${users.income} + ${income}` } : { totalFail: sql`${users.totalFail} + 1` })
        .where(eq(users.id, userId));
      if (account) {
        await tx
          .update(whatsapps)
          .set(
            success
              ? { countSuccess: sql`${whatsapps.countSuccess} + 1`, income: sql`${whatsapps.income} + ${income}` }
              : { countFail: sql`${whatsapps.countFail} + 1` },
          )
          .where(eq(whatsapps.id, account.id));
      }
      if (success) await creditReferral(tx, userId, income, log!.id);
    }
  });
}

demoSeeders.push(async (db, ids) => {
  const { admin, member, member2, member3, member4, member5 } = ids;
  if (!admin || !member || !member2 || !member3 || !member4 || !member5) return;

  // Budi crosses the Silver requirement (1000) part-way, so his later messages earn the Silver fee.
  await recordHistory(db, member, 1150, 40, 10, 11);
  await recordHistory(db, member2, 320, 15, 7, 22); // referred by Budi
  await recordHistory(db, member3, 180, 6, 5, 33); // referred by Budi
  await recordHistory(db, member4, 600, 20, 9, 44);
  await recordHistory(db, member5, 90, 4, 3, 55); // referred by Siti

  await db
    .update(users)
    .set({ accountBank: 'MANDIRI', accountNumber: '1370012345678', accountName: 'Siti Rahmawati' })
    .where(eq(users.id, member4));

  const ago = (days: number) => new Date(Date.now() - days * DAY);
  const givenBonuses = await db.insert(bonuses).values([
      { userId: member, adminId: admin, nominal: 25000, reason: 'Bonus akhir bulan', createdAt: ago(6) },
      { userId: member, adminId: admin, nominal: 10000, reason: 'Hadiah referal terbanyak', createdAt: ago(2) },
      { userId: member2, adminId: admin, nominal: 15000, reason: 'Bonus member baru', createdAt: ago(4) },
      { userId: member4, adminId: admin, nominal: 5000, reason: 'Bonus konsisten blast', createdAt: ago(1) },
  ]).returning();

  const requested = await db.insert(withdrawals).values([
      { userId: member, nominal: 50000, status: 'accepted', updatedBy: admin, updatedAt: ago(3), createdAt: ago(4) },
      { userId: member, nominal: 20000, status: 'rejected', updatedBy: admin, updatedAt: ago(1), createdAt: ago(2) },
      { userId: member, nominal: 15000, status: 'requested', createdAt: ago(0.2) },
      { userId: member4, nominal: 10000, status: 'requested', createdAt: ago(0.5) },
  ]).returning();

  // The audit log holds these money changes as the console would have written them.
  const owners = new Map((await db.select().from(users)).map((u) => [u.id, u]));
  const account = (userId: number) => auditedAccount(owners.get(userId) ?? null);
  await db.insert(auditLog).values([
    ...givenBonuses.map((b) => ({
      actorId: b.adminId,
      targetUserId: b.userId,
      action: 'bonus.create' satisfies AuditAction,
      details: { bonusId: b.id, nominal: b.nominal, reason: b.reason },
      createdAt: b.createdAt,
    })),
    ...requested.map((w) => ({
      actorId: w.userId,
      targetUserId: w.userId,
      action: 'withdraw.request' satisfies AuditAction,
      details: { withdrawId: w.id, nominal: w.nominal, account: account(w.userId) },
      createdAt: w.createdAt,
    })),
    ...requested
      .filter((w) => w.status !== 'requested')
      .map((w) => ({
        actorId: w.updatedBy,
        targetUserId: w.userId,
        action: 'withdraw.status' satisfies AuditAction,
        details: { withdrawId: w.id, nominal: w.nominal, account: account(w.userId), from: 'requested', to: w.status },
        createdAt: w.updatedAt ?? w.createdAt,
      })),
  ]);
});
