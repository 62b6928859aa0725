import { and, asc, count, eq, gt, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { moneyTransaction, transaction, type Db } from '../db/client';
import { one } from '../db/raw';
import { isPostgres } from '../db/postgres';
import { messageLogs, phoneNumbers, users, whatsapps } from '../db/schema';
import { feeFor } from '../money/levels';
import { creditReferral } from '../money/referral';
import type { CloudStatus } from './schema';
import { ACCOUNT_REFUSED, TEMPLATE_REFUSED } from '../gateway/cloud/refusals';

export type DeliveryStatus = CloudStatus['status'];

/** How far a message got; a status only ever moves a row forward. 'failed' stands apart (see `moves`). */
const RANK: Record<Exclude<DeliveryStatus, 'failed'>, number> = { sent: 1, delivered: 2, read: 3 };

/**
 * Whether `next` may replace `current`: sent < delivered < read, and 'failed' only from nothing or
 * 'sent' (a message reported delivered cannot fail afterwards; a failed one never comes back).
 */
export function moves(current: string | null, next: DeliveryStatus): boolean {
  if (current === 'failed') return false;
  const from = current === null ? 0 : (RANK[current as keyof typeof RANK] ?? 0);
  if (next === 'failed') return from <= RANK.sent;
  return RANK[next] > from;
}

/**
 * Meta's error codes the product already has words for (the gateway's send error codes), the template's and
 * the business number's refusals from the gateway's own lists.
 */
const KNOWN_ERRORS: Record<string, string> = {
  '131047': 'reengagement',
  '131026': 'not_registered',
  '190': 'token_expired',
  '130429': 'rate_limited',
  '131056': 'rate_limited',
  ...Object.fromEntries([...TEMPLATE_REFUSED].map((code) => [String(code), 'no_template'])),
  ...Object.fromEntries([...ACCOUNT_REFUSED].map((code) => [String(code), 'account_restricted'])),
};

/** The log row's error_code for a failed status: a product code when there is one, else Meta's number. */
export function failureCode(status: CloudStatus): string {
  const code = status.errors?.[0]?.code;
  if (code === undefined || code === '') return 'failed';
  return KNOWN_ERRORS[String(code)] ?? String(code);
}

function failureText(status: CloudStatus): string | null {
  const e = status.errors?.[0];
  if (!e) return null;
  const text = [e.code, e.title, e.message ?? e.error_data?.details].filter((x) => x !== undefined && x !== '').join(' — ');
  return text.slice(0, 500) || null;
}

function statusTime(status: CloudStatus): Date {
  const seconds = Number(status.timestamp);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
}

/** What one status did, for the live events after the commit. */
export interface StatusOutcome {
  /**
   * 'unknown': no log row has the message id (yet: see webhooks/held.ts). 'other-number': the body names
   * a business number that is not the one that sent the message, so the status was not applied.
   */
  kind: 'unknown' | 'ignored' | 'other-number' | 'status' | 'paid' | 'failed';
  accountId: number | null;
  userId: number | null;
  /** Users whose balance changed: the member paid, and a credited referrer. */
  balances: number[];
}

const IGNORED: StatusOutcome = { kind: 'ignored', accountId: null, userId: null, balances: [] };
const UNKNOWN: StatusOutcome = { ...IGNORED, kind: 'unknown' };

/**
 * The statuses a row's delivery status may move from to `next` (sent < delivered < read; 'failed' only from
 * nothing or 'sent'): the condition of the row's update, so a status that lost a race to another moves nothing.
 */
function behind(next: DeliveryStatus) {
  const from = (['sent', 'delivered', 'read'] as const).filter((s) => moves(s, next));
  return from.length ? or(isNull(messageLogs.deliveryStatus), inArray(messageLogs.deliveryStatus, from)) : isNull(messageLogs.deliveryStatus);
}

/** The row's delivery status moved by someone else between its read and its update: nothing is applied. */
class Overtaken extends Error {}

/**
 * Applies one Cloud API status to its message-log row in one money transaction:
 * - the delivery status moves forward only, so Meta's retries and out-of-order deliveries change nothing twice
 *   (the row's UPDATE is conditional on the status it moves from; the day counters follow the row's change);
 * - the first 'delivered' or 'read' of a successful, unpaid send pays the member the fee of the engine's
 *   rule (plus the referrer's credit) on the log row, the account and the member;
 * - 'failed' after acceptance turns an unpaid success into a failure and moves the account's, member's and
 *   number's counters from success to fail. A paid row keeps its money (see docs/decisions.md).
 * Unknown message ids change nothing (answered 'unknown'). With `from` (the body's
 * metadata.phone_number_id), a status for a message another business number sent changes nothing either:
 * Meta reports a message's statuses under the number that sent it, so a mismatch is a forged or misrouted body.
 * The member and the account are written before the log row, in the engine tick's order (members, accounts,
 * then the counters the log's triggers keep), so a status and a tick of the same account never deadlock.
 */
export async function applyStatus(db: Db, status: CloudStatus, from?: string | null): Promise<StatusOutcome> {
  try {
    return await moneyTransaction(db, (tx) => applyInTransaction(tx, status, from));
  } catch (err) {
    if (err instanceof Overtaken) return IGNORED;
    throw err;
  }
}

async function applyInTransaction(tx: Db, status: CloudStatus, from?: string | null): Promise<StatusOutcome> {
  const row = await one(tx.select().from(messageLogs).where(eq(messageLogs.waMessageId, status.id)).orderBy(asc(messageLogs.id)).limit(1));
  if (!row) return UNKNOWN;
  if (from !== undefined && row.whatsappId !== null) {
    const sender = await one(tx.select({ number: whatsapps.cloudPhoneNumberId }).from(whatsapps).where(eq(whatsapps.id, row.whatsappId)).limit(1));
    if (sender && sender.number !== from) return { ...IGNORED, kind: 'other-number', accountId: row.whatsappId, userId: row.userId };
  }
  if (!moves(row.deliveryStatus, status.status)) return IGNORED;
  const at = statusTime(status);
  const base = { kind: 'status' as const, accountId: row.whatsappId, userId: row.userId, balances: [] as number[] };
  const advance = async (set: Partial<typeof messageLogs.$inferInsert>) => {
    const moved = await tx
      .update(messageLogs)
      .set({ deliveryStatus: status.status, statusAt: at, ...set })
      .where(and(eq(messageLogs.id, row.id), behind(status.status)))
      .returning({ id: messageLogs.id });
    if (!moved.length) throw new Overtaken();
  };

  if (status.status === 'failed') {
    const unpaidSuccess = row.success && row.income === 0;
    if (unpaidSuccess) {
      await tx
        .update(users)
        .set({ totalSuccess: sql`${users.totalSuccess} - 1`, totalFail: sql`${users.totalFail} + 1` })
        .where(eq(users.id, row.userId));
      if (row.whatsappId !== null) {
        await tx
          .update(whatsapps)
          .set({ countSuccess: sql`${whatsapps.countSuccess} - 1`, countFail: sql`${whatsapps.countFail} + 1`, updatedAt: new Date() })
          .where(eq(whatsapps.id, row.whatsappId));
      }
      if (row.phoneNumberId !== null) {
        await tx
          .update(phoneNumbers)
          .set({ countSuccess: sql`${phoneNumbers.countSuccess} - 1`, countFail: sql`${phoneNumbers.countFail} + 1` })
          .where(eq(phoneNumbers.id, row.phoneNumberId));
      }
    }
    await advance({ deliveryError: failureText(status), ...(unpaidSuccess ? { success: false, errorCode: failureCode(status) } : {}) });
    return unpaidSuccess ? { ...base, kind: 'failed' } : base;
  }

  // First report that the message arrived ('read' may come without 'delivered'): pay once.
  const arrives = status.status !== 'sent' && !(row.deliveryStatus === 'delivered' || row.deliveryStatus === 'read');
  const fee = arrives && row.success && row.income === 0 ? await feeAtDelivery(tx, row) : 0;
  if (fee <= 0) {
    await advance({});
    return base;
  }
  await tx
    .update(users)
    .set({ income: sql`${users.income} + ${fee}` })
    .where(eq(users.id, row.userId));
  if (row.whatsappId !== null) {
    await tx
      .update(whatsapps)
      .set({ income: sql`${whatsapps.income} + ${fee}`, updatedAt: new Date() })
      .where(eq(whatsapps.id, row.whatsappId));
  }
  await advance({ income: fee });
  const credit = await creditReferral(tx, row.userId, fee, row.id);
  return { ...base, kind: 'paid', balances: credit ? [row.userId, credit.referrerId] : [row.userId] };
}

/** A delivery report of the simulator: its device, message id, status and time. */
export interface DeliveryReport {
  deviceId: string;
  messageId: string;
  status: 'delivered' | 'read';
  date: Date;
}

/** What a report did: the row's account and owner when it moved, 'unknown' when no such row is logged (yet), null otherwise. */
export type ReportResult = { accountId: number; userId: number } | 'unknown' | null;

/**
 * Delivery reports of the simulator (never money: a simulated send is paid when it is sent), many at once:
 * moves the row of each report's device's account with its message id forward, 'sent' → 'delivered' →
 * 'read', once. One read of the rows and one update per status (two at most), whatever the number of
 * reports, in one transaction; the log's statement triggers keep the day counters of all of them in the
 * same statement, in the accounts' order. A message id given twice keeps its furthest status. Answers each
 * message id's result.
 */
export async function applyReports(db: Db, reports: readonly DeliveryReport[]): Promise<Map<string, ReportResult>> {
  const latest = new Map<string, DeliveryReport>();
  for (const r of reports) {
    const seen = latest.get(r.messageId);
    if (!seen || RANK[r.status] >= RANK[seen.status]) latest.set(r.messageId, r);
  }
  const results = new Map<string, ReportResult>();
  if (!latest.size) return results;
  return transaction(db, async (tx) => {
    // Reports never move money: on PostgreSQL their commit does not wait for the disk, as the tick's does not
    // (db/pg/tick.ts TICK_BEGIN) and as SQLite's does not (WAL, synchronous = NORMAL).
    if (isPostgres(tx)) await tx.execute(sql`SET LOCAL synchronous_commit = off`);
    const rows = await tx
      .select({ id: messageLogs.id, waMessageId: messageLogs.waMessageId, whatsappId: messageLogs.whatsappId, userId: messageLogs.userId, deviceId: whatsapps.deviceId, cloud: whatsapps.cloudPhoneNumberId })
      .from(messageLogs)
      .innerJoin(whatsapps, eq(whatsapps.id, messageLogs.whatsappId))
      .where(inArray(messageLogs.waMessageId, [...latest.keys()]))
      .orderBy(asc(messageLogs.id));
    const first = new Map<string, (typeof rows)[number]>();
    for (const row of rows) if (row.waMessageId !== null && !first.has(row.waMessageId)) first.set(row.waMessageId, row);
    const byStatus = { delivered: [] as { row: (typeof rows)[number]; at: Date }[], read: [] as { row: (typeof rows)[number]; at: Date }[] };
    for (const [messageId, report] of latest) {
      const row = first.get(messageId);
      results.set(messageId, row ? null : 'unknown');
      if (row && row.deviceId === report.deviceId && row.cloud === null && row.whatsappId !== null) byStatus[report.status].push({ row, at: report.date });
    }
    for (const status of ['delivered', 'read'] as const) {
      const group = byStatus[status];
      if (!group.length) continue;
      const at = sql.join([sql`CASE ${messageLogs.id}`, ...group.map((g) => sql`WHEN ${g.row.id} THEN CAST(${g.at.getTime()} AS BIGINT)`), sql`END`], sql` `);
      const moved = await tx
        .update(messageLogs)
        .set({ deliveryStatus: status, statusAt: at })
        .where(and(inArray(messageLogs.id, group.map((g) => g.row.id)), behind(status)))
        .returning({ id: messageLogs.id });
      const ids = new Set(moved.map((m) => m.id));
      for (const { row } of group) if (ids.has(row.id)) results.set(row.waMessageId!, { accountId: row.whatsappId!, userId: row.userId });
    }
    return results;
  });
}

/**
 * The engine's fee rule (money/levels.ts feeFor) for a send counted as a success earlier: the member's
 * level is the one of their successful messages before this one, as it was at send time. Sends accepted
 * after this one are already in the member's total (its delivery may come long after them), so they are
 * taken off: the successful rows of the member with a higher id, looked for from a minute before this row's
 * time (a range of the (user_id, created_at) index; the minute covers nodes whose clocks differ a little).
 */
/** How far apart the nodes' clocks may be when the log's times are compared with its ids. */
const CLOCK_SLACK_MS = 60_000;

async function feeAtDelivery(tx: Db, row: Pick<typeof messageLogs.$inferSelect, 'id' | 'userId' | 'createdAt'>): Promise<number> {
  const member = await one(tx.select({ blastFee: users.blastFee, totalSuccess: users.totalSuccess }).from(users).where(eq(users.id, row.userId)).limit(1));
  if (!member) return 0;
  if (member.blastFee !== null && member.blastFee > 0) return member.blastFee;
  const later = await one(
    tx
      .select({ n: count() })
      .from(messageLogs)
      .where(and(eq(messageLogs.userId, row.userId), gte(messageLogs.createdAt, new Date(row.createdAt.getTime() - CLOCK_SLACK_MS)), gt(messageLogs.id, row.id), eq(messageLogs.success, true))),
  );
  return feeFor(tx, { blastFee: member.blastFee, totalSuccess: Math.max(0, member.totalSuccess - 1 - Number(later?.n ?? 0)) });
}
