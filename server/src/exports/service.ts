import { and, asc, eq, gt, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Writable } from 'node:stream';
import type { AppContext } from '../context';
import { auditLog, messageLogs, users, whatsapps, withdrawals } from '../db/schema';
import { streamRows } from '../lib/csv';
import { levelLadder } from '../money/levels';
import { DAY_MS, DAY_OFFSET_MS } from '../messagelog/service';

/**
 * The books' exports: CSV streamed page by page (keyset on the id, PAGE rows a query), each page written
 * and drained before the next is read, so a million rows never sit in memory and a slow reader slows the
 * reading instead of filling the process. Field names are the spec's; money is whole rupiah; times ISO 8601 UTC.
 */
const PAGE = 1000;

/** A range of WIB days, inclusive, as the moments it spans: [start, end). */
export interface DayRange {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

/** 'YYYY-MM-DD' → midnight WIB of that day. */
export function wibMidnight(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) - DAY_OFFSET_MS);
}

export function dayRange(from: string, to: string): DayRange {
  return { from, to, start: wibMidnight(from), end: new Date(wibMidnight(to).getTime() + DAY_MS) };
}

const iso = (d: Date | null) => (d ? d.toISOString() : '');

/** One page after `after` of a query ordered by id; null once none is left. */
async function pageOf<T extends { id: number }>(rows: Promise<T[]>): Promise<{ rows: T[]; lastKey: number } | null> {
  const got = await rows;
  return got.length ? { rows: got, lastKey: got[got.length - 1]!.id } : null;
}

const whatsappCount = sql<number>`(select count(*) from ${whatsapps} where ${eq(whatsapps.userId, users.id)})`.mapWith(Number);

const memberColumns = {
  id: users.id,
  firstname: users.firstname,
  lastname: users.lastname,
  email: users.email,
  role: users.role,
  totalSuccess: users.totalSuccess,
  income: users.income,
  createdAt: users.createdAt,
  whatsapps: whatsappCount,
  min: users.blastIntervalMin,
  max: users.blastIntervalMax,
  fee: users.blastFee,
};

const membersAfter = (ctx: AppContext, after: number) =>
  ctx.db.select(memberColumns).from(users).where(and(eq(users.role, 'member'), gt(users.id, after))).orderBy(asc(users.id)).limit(PAGE);

/** Members (role member), as the member list shows them: spec field names, level by name. */
export async function exportMembers(ctx: AppContext, out: Writable): Promise<void> {
  const levelOf = await levelLadder(ctx.db);
  await streamRows<Awaited<ReturnType<typeof membersAfter>>[number]>(
    out,
    'csv',
    {
      header: ['id', 'firstname', 'lastname', 'email', 'level', 'income', 'createdAt', 'whatsapps', 'blast_interval_min', 'blast_interval_max', 'blast_fee', 'role'],
      cells: (r) => [r.id, r.firstname, r.lastname, r.email, levelOf(r.totalSuccess)?.name ?? '', r.income, iso(r.createdAt), r.whatsapps, r.min, r.max, r.fee, r.role],
      json: (r) => r,
    },
    (after) => pageOf(membersAfter(ctx, after)),
  );
}

/** Withdrawals requested within the range, with the member's bank details (for the admin's books only). */
export async function exportWithdrawals(ctx: AppContext, out: Writable, range: DayRange): Promise<void> {
  const columns = {
    id: withdrawals.id,
    nominal: withdrawals.nominal,
    status: withdrawals.status,
    createdAt: withdrawals.createdAt,
    updatedAt: withdrawals.updatedAt,
    userId: withdrawals.userId,
  };
  await streamRows<{ cells: unknown[] }>(
    out,
    'csv',
    {
      header: ['id', 'nominal', 'status', 'createdAt', 'updatedAt', 'user_id', 'firstname', 'lastname', 'email', 'account_bank', 'account_number', 'account_name'],
      cells: (r) => r.cells,
      json: (r) => r.cells,
    },
    async (after) => {
      const page = await pageOf(
        ctx.db
          .select(columns)
          .from(withdrawals)
          .where(and(gt(withdrawals.id, after), inRange(withdrawals.createdAt, range)))
          .orderBy(asc(withdrawals.id))
          .limit(PAGE),
      );
      if (!page) return null;
      // The page's members in one query by id, rather than a join per row.
      const ids = [...new Set(page.rows.map((r) => r.userId))];
      const people = new Map(
        (
          await ctx.db
            .select({ id: users.id, firstname: users.firstname, lastname: users.lastname, email: users.email, bank: users.accountBank, number: users.accountNumber, name: users.accountName })
            .from(users)
            .where(inArray(users.id, ids))
        ).map((u) => [u.id, u]),
      );
      const rows = page.rows.map((w) => {
        const u = people.get(w.userId);
        return { cells: [w.id, w.nominal, w.status, iso(w.createdAt), iso(w.updatedAt), w.userId, u?.firstname, u?.lastname, u?.email, u?.bank, u?.number, u?.name] };
      });
      return { rows, lastKey: page.lastKey };
    },
  );
}

function inRange(column: typeof withdrawals.createdAt | typeof messageLogs.createdAt | typeof auditLog.createdAt, range: DayRange | null): SQL | undefined {
  return range ? and(gte(column, range.start), lt(column, range.end)) : undefined;
}

const logColumns = {
  id: messageLogs.id,
  createdAt: messageLogs.createdAt,
  userId: messageLogs.userId,
  whatsappId: messageLogs.whatsappId,
  number: messageLogs.number,
  templateId: messageLogs.templateId,
  success: messageLogs.success,
  errorCode: messageLogs.errorCode,
  income: messageLogs.income,
  deliveryStatus: messageLogs.deliveryStatus,
};

/**
 * One page of the log in time order after `cursor` (the last row written). Keyset on (created_at, id) over
 * the created_at index, whose entries carry the id: each page starts where the last ended. Ordered by id
 * with a range on created_at, SQLite walked the time index and sorted the whole range for every page
 * (a million rows: 7 minutes and the event loop held over a second at a time).
 */
const logAfter = (ctx: AppContext, cursor: { at: Date; id: number } | null, range: DayRange) =>
  ctx.db
    .select(logColumns)
    .from(messageLogs)
    .where(
      and(
        gte(messageLogs.createdAt, cursor && cursor.at > range.start ? cursor.at : range.start),
        lt(messageLogs.createdAt, range.end),
        cursor ? or(gt(messageLogs.createdAt, cursor.at), gt(messageLogs.id, cursor.id)) : undefined,
      ),
    )
    .orderBy(asc(messageLogs.createdAt), asc(messageLogs.id))
    .limit(PAGE);

/** Every send attempt within the range, oldest first: who, which account and number, the result and the income it earned. */
export async function exportMessageLog(ctx: AppContext, out: Writable, range: DayRange): Promise<void> {
  let cursor: { at: Date; id: number } | null = null;
  await streamRows<Awaited<ReturnType<typeof logAfter>>[number]>(
    out,
    'csv',
    {
      header: ['id', 'createdAt', 'user_id', 'whatsapp_id', 'number', 'template_id', 'success', 'error_code', 'income', 'delivery_status'],
      cells: (r) => [r.id, iso(r.createdAt), r.userId, r.whatsappId, r.number, r.templateId, r.success ? 1 : 0, r.errorCode, r.income, r.deliveryStatus],
      json: (r) => r,
    },
    async () => {
      const page = await pageOf(logAfter(ctx, cursor, range));
      const last = page?.rows[page.rows.length - 1];
      if (last) cursor = { at: last.createdAt, id: last.id };
      return page;
    },
  );
}

/** The audit log, oldest first, optionally within a range; details as the JSON they were written as. */
export async function exportAudit(ctx: AppContext, out: Writable, range: DayRange | null): Promise<void> {
  await streamRows<typeof auditLog.$inferSelect>(
    out,
    'csv',
    {
      header: ['id', 'createdAt', 'actor_id', 'target_user_id', 'action', 'details'],
      cells: (r) => [r.id, iso(r.createdAt), r.actorId, r.targetUserId, r.action, JSON.stringify(r.details)],
      json: (r) => r,
    },
    (after) => pageOf(ctx.db.select().from(auditLog).where(and(gt(auditLog.id, after), inRange(auditLog.createdAt, range))).orderBy(asc(auditLog.id)).limit(PAGE)),
  );
}
