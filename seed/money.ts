import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../server/src/db/client';
import { one } from '../server/src/db/raw';
import { auditLog, bonuses, levels, messageLogs, referralCredits, users, whatsapps, withdrawals } from '../server/src/db/schema';
import { auditedAccount, type AuditAction } from '../server/src/audit/service';
import { feeOn, type RuleSnapshot } from '../server/src/engine/snapshot';
import { referralAmount } from '../server/src/money/referral';
import { getSettings } from '../server/src/settings/service';
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

/** Rows per multi-row insert: far below both databases' limits on bound parameters. */
const CHUNK = 500;

/**
 * Send attempts recorded as the blast engine records them: per attempt one message-log row with the fee
 * the member earned at that moment (the engine's rule, `feeOn`, on the member's successes so far), the
 * referrer's credit for it, and the member's running totals (and their first account's, when one
 * exists). The rows are computed first and written with a few multi-row statements: one statement per
 * attempt took most of the demo's start on PostgreSQL.
 */
async function recordHistory(db: Db, userId: number, successes: number, failures: number, days: number, seed: number): Promise<void> {
  const rand = lcg(seed);
  const member = await one(db.select().from(users).where(eq(users.id, userId)).limit(1));
  if (!member) return;
  const account = await one(db.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.userId, userId)).orderBy(whatsapps.id).limit(1));
  const total = successes + failures;
  const start = Date.now() - days * DAY;
  const attempts = Array.from({ length: total }, (_, i) => ({
    // Exactly `failures` failed attempts, spread evenly.
    success: Math.floor(((i + 1) * failures) / total) === Math.floor((i * failures) / total),
    at: start + Math.floor(((i + rand()) / total) * days * DAY),
  }));

  const snap = await rulesOf(db);
  // Referral rewards are a member's (money/referral.ts): a referrer of another role earns nothing.
  const referrer =
    member.referredBy !== null && member.referredBy !== userId
      ? await one(db.select({ id: users.id }).from(users).where(and(eq(users.id, member.referredBy), eq(users.role, 'member'))).limit(1))
      : undefined;

  // Its own sequence, so the numbers and times drawn from `rand` stay those of earlier seeds.
  const reached = lcg(seed + 1000);
  let totalSuccess = member.totalSuccess;
  let income = 0;
  const logs = attempts.map((a, i) => {
    const fee = a.success ? feeOn(snap, { blast_fee: member.blastFee, total_success: totalSuccess }) : 0;
    if (a.success) totalSuccess += 1;
    income += fee;
    // How far each send got, as the simulator reports it: most delivered, more than half of those read.
    const reach = reached();
    const delivery = !a.success ? null : reach < 0.08 ? 'sent' : reach < 0.45 ? 'delivered' : 'read';
    return {
      waMessageId: a.success ? `3EB0DEMO${seed}${String(i).padStart(8, '0')}` : null,
      deliveryStatus: delivery,
      statusAt: delivery && delivery !== 'sent' ? new Date(Math.min(a.at, Date.now() - 60_000) + 2_000) : null,
      userId,
      whatsappId: account?.id ?? null,
      number: `62812${String(3000000 + Math.floor(rand() * 6999999))}`,
      success: a.success,
      errorCode: a.success ? null : 'NOT_DELIVERED',
      income: fee,
      createdAt: new Date(Math.min(a.at, Date.now() - 60_000)),
    };
  });
  const credits: Array<typeof referralCredits.$inferInsert> = [];
  for (let from = 0; from < logs.length; from += CHUNK) {
    const chunk = logs.slice(from, from + CHUNK);
    // Ids are handed out in the order of the rows; sorted, they pair with the rows whatever order RETURNING uses.
    const ids = (await db.insert(messageLogs).values(chunk).returning({ id: messageLogs.id })).map((r) => r.id).sort((a, b) => a - b);
    chunk.forEach((log, i) => {
      const amount = referrer && log.success ? referralAmount(log.income, snap.settings.referral_percent) : 0;
      if (amount > 0) credits.push({ referrerId: referrer!.id, referredId: userId, messageLogId: ids[i]!, amount });
    });
  }
  for (let from = 0; from < credits.length; from += CHUNK) await db.insert(referralCredits).values(credits.slice(from, from + CHUNK));

  const succeeded = totalSuccess - member.totalSuccess;
  await db
    .update(users)
    .set({ totalSuccess: sql`${users.totalSuccess} + ${succeeded}`, totalFail: sql`${users.totalFail} + ${total - succeeded}`, income: sql`${users.income} + ${income}` })
    .where(eq(users.id, userId));
  if (account) {
    await db
      .update(whatsapps)
      .set({ countSuccess: sql`${whatsapps.countSuccess} + ${succeeded}`, countFail: sql`${whatsapps.countFail} + ${total - succeeded}`, income: sql`${whatsapps.income} + ${income}` })
      .where(eq(whatsapps.id, account.id));
  }
}

/** The fee and referral rules' inputs as the engine reads them once per tick. */
async function rulesOf(db: Db): Promise<RuleSnapshot> {
  const s = await getSettings(db);
  const ladder = await db.select({ blast_fee: levels.blastFee, requirement_blast: levels.requirementBlast }).from(levels).orderBy(asc(levels.requirementBlast), asc(levels.id));
  return {
    settings: { interval_min: s.intervalMin, interval_max: s.intervalMax, price: s.price, referral_percent: s.referralPercent, recipient_cooldown_hours: s.recipientCooldownHours, send_from: s.sendFrom, send_to: s.sendTo, time_zone: s.timeZone },
    levels: ladder,
    templates: [],
  };
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
