import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ErrorCode } from '../../../common/errors';
import type { AppContext } from '../context';
import type { AuthUser } from '../auth/middleware';
import { moneyTransaction, type Db } from '../db/client';
import { one } from '../db/raw';
import { users, withdrawals } from '../db/schema';
import { HttpError } from '../lib/errors';
import { paged, pageWindow } from '../lib/paging';
import { balanceBigOf } from '../money/balance';
import { auditedAccount, writeAudit } from '../audit/service';
import { KEY_REUSED, onceByKey } from '../lib/request-key';
import { publishBalance } from '../money/events';
import { NO_BALANCE_MSG, NO_BANK_MSG, type WithdrawRequestBody, type WithdrawStatus, type WithdrawUpdateBody } from './schema';

type WithdrawRow = typeof withdrawals.$inferSelect;
type UserBank = Pick<typeof users.$inferSelect, 'firstname' | 'lastname' | 'email' | 'accountBank' | 'accountNumber' | 'accountName'>;

const userBank = {
  firstname: users.firstname,
  lastname: users.lastname,
  email: users.email,
  accountBank: users.accountBank,
  accountNumber: users.accountNumber,
  accountName: users.accountName,
};

export function withdrawView(w: WithdrawRow, u: UserBank | null) {
  return {
    id: w.id,
    userId: w.userId,
    nominal: w.nominal,
    status: w.status,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    updatedBy: w.updatedBy,
    User: u
      ? {
          firstname: u.firstname,
          lastname: u.lastname,
          email: u.email,
          account_bank: u.accountBank,
          account_number: u.accountNumber,
          account_name: u.accountName,
        }
      : null,
  };
}

const hasBank = (u: UserBank) => Boolean(u.accountBank?.trim() && u.accountNumber?.trim() && u.accountName?.trim());

/**
 * A withdrawal request for the caller only. The balance check and the insert are one money
 * transaction (see moneyTransaction), so concurrent requests can never overdraw.
 */
export async function requestWithdrawal(ctx: AppContext, caller: AuthUser, body: z.infer<typeof WithdrawRequestBody>, key: string | null = null) {
  if (body.userId !== undefined && body.userId !== null && body.userId !== caller.id) {
    throw new HttpError(403, 'Forbidden');
  }
  const { row, repeated } = await onceByKey(key, 'withdrawals', () => moneyTransaction(ctx.db, async (tx) => {
    const me = await one(tx.select(userBank).from(users).where(eq(users.id, caller.id)).limit(1));
    if (!me) throw new HttpError(404, 'User not found');
    // The same request sent again (a retry after a lost answer): the withdrawal it already made.
    if (key !== null) {
      const earlier = await one(tx.select().from(withdrawals).where(and(eq(withdrawals.userId, caller.id), eq(withdrawals.requestKey, key))).limit(1));
      if (earlier && earlier.nominal !== body.nominal) throw new HttpError(409, KEY_REUSED);
      if (earlier) return { row: withdrawView(earlier, me), repeated: true };
    }
    if (!hasBank(me)) throw new HttpError(422, NO_BANK_MSG, { code: 1 });
    if ((await balanceBigOf(tx, caller.id)) < BigInt(body.nominal)) throw new HttpError(422, NO_BALANCE_MSG);
    const [inserted] = await tx.insert(withdrawals).values({ userId: caller.id, nominal: body.nominal, status: 'requested', requestKey: key }).returning();
    // The request holds the money from the balance: a money change, recorded with the account it names.
    await writeAudit(tx, caller.id, caller.id, 'withdraw.request', { withdrawId: inserted!.id, nominal: inserted!.nominal, account: auditedAccount(me) });
    return { row: withdrawView(inserted!, me), repeated: false };
  }));
  if (!repeated) await announce(ctx, row);
  return { msg: 'Permintaan withdraw berhasil dikirim.', withdraw: row };
}

const MOVES: Record<WithdrawStatus, WithdrawStatus[]> = {
  requested: ['accepted', 'rejected'],
  accepted: ['requested'],
  rejected: ['requested'],
};

const DONE_MSG: Record<WithdrawStatus, string> = {
  accepted: 'Permintaan withdraw Diterima',
  rejected: 'Permintaan withdraw Ditolak',
  requested: 'Permintaan withdraw Dibatalkan',
};
/** The stable code of each decision message (common/errors.ts), which the console shows in its language. */
const DONE_CODE: Record<WithdrawStatus, ErrorCode> = { accepted: 'withdraw_accepted', rejected: 'withdraw_rejected', requested: 'withdraw_reopened' };

/**
 * requested → accepted | rejected; accepted | rejected → requested. Coming back from rejected
 * holds the money again, so the member's balance is checked first. Records who and when.
 */
export async function updateWithdrawal(ctx: AppContext, caller: AuthUser, body: z.infer<typeof WithdrawUpdateBody>) {
  const row = await moneyTransaction(ctx.db, async (tx) => {
    const current = await one(tx.select().from(withdrawals).where(eq(withdrawals.id, body.id)).limit(1));
    if (!current) throw new HttpError(404, 'Withdraw not found');
    if (current.userId === caller.id) throw new HttpError(403, 'Anda tidak dapat memutuskan permintaan withdraw Anda sendiri.');
    if (!MOVES[current.status].includes(body.status)) {
      throw new HttpError(409, `Status ${current.status} tidak dapat diubah menjadi ${body.status}.`);
    }
    if (current.status === 'rejected' && (await balanceBigOf(tx, current.userId)) < BigInt(current.nominal)) {
      throw new HttpError(409, 'Saldo member tidak mencukupi untuk mengaktifkan kembali permintaan ini.');
    }
    const [updated] = await tx
      .update(withdrawals)
      .set({ status: body.status, updatedBy: caller.id, updatedAt: new Date() })
      .where(eq(withdrawals.id, body.id))
      .returning();
    const owner = (await one(tx.select(userBank).from(users).where(eq(users.id, updated!.userId)).limit(1))) ?? null;
    // The account the decision was made for, as it stood then (the member may change it later).
    await writeAudit(tx, caller.id, updated!.userId, 'withdraw.status', { withdrawId: updated!.id, nominal: updated!.nominal, account: auditedAccount(owner), from: current.status, to: updated!.status });
    return withdrawView(updated!, owner);
  });
  await announce(ctx, row);
  return { msg: DONE_MSG[body.status], code: DONE_CODE[body.status], withdraw: row };
}

async function announce(ctx: AppContext, row: ReturnType<typeof withdrawView>): Promise<void> {
  ctx.realtime.toUserAndAdmin(row.userId, 'withdraw', row);
  await publishBalance(ctx, row.userId);
}

function listQuery(db: Db, where: SQL | undefined) {
  return db
    .select({ w: withdrawals, u: userBank })
    .from(withdrawals)
    .leftJoin(users, eq(users.id, withdrawals.userId))
    .where(where)
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id));
}

export async function historyOf(ctx: AppContext, userId: number) {
  return { list: (await listQuery(ctx.db, eq(withdrawals.userId, userId))).map((r) => withdrawView(r.w, r.u)) };
}

export async function allHistories(ctx: AppContext) {
  return { list: (await listQuery(ctx.db, undefined)).map((r) => withdrawView(r.w, r.u)) };
}

export async function historiesPerPage(ctx: AppContext, page: number, userId: number | null, status: WithdrawStatus | null) {
  const where = and(userId !== null ? eq(withdrawals.userId, userId) : undefined, status ? eq(withdrawals.status, status) : undefined);
  const total = (await one(ctx.db.select({ n: count() }).from(withdrawals).where(where)))?.n ?? 0;
  const { limit, offset } = pageWindow(page);
  const rows = await listQuery(ctx.db, where).limit(limit).offset(offset);
  return paged(
    rows.map((r) => withdrawView(r.w, r.u)),
    total,
    page,
  );
}
