import { count, desc, eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { AuthUser } from '../auth/middleware';
import { moneyTransactionSync } from '../db/client';
import { bonuses, users } from '../db/schema';
import { HttpError } from '../lib/errors';
import { paged, pageWindow } from '../lib/paging';
import { balanceBigOf } from '../money/balance';
import { MAX_BALANCE, rupiah } from '../money/limits';
import { writeAudit } from '../audit/service';
import { publishBalance } from '../money/events';
import type { BonusCreate } from './schema';

type BonusRow = typeof bonuses.$inferSelect;

const owner = { firstname: users.firstname, lastname: users.lastname, email: users.email };

export function bonusView(b: BonusRow, u: { firstname: string; lastname: string; email: string } | null) {
  return {
    id: b.id,
    nominal: b.nominal,
    reason: b.reason,
    createdAt: b.createdAt,
    userId: b.userId,
    adminId: b.adminId,
    User: u ? { firstname: u.firstname, lastname: u.lastname, email: u.email } : null,
  };
}

export const SELF_BONUS_MSG = 'Anda tidak dapat memberi bonus kepada akun Anda sendiri.';

/** Only members and developers hold a balance, so only they receive bonuses; nobody pays themselves. */
export function createBonus(ctx: AppContext, caller: AuthUser, input: BonusCreate) {
  if (input.userId === caller.id) throw new HttpError(403, SELF_BONUS_MSG, { errors: { userId: SELF_BONUS_MSG } });
  const view = moneyTransactionSync(ctx.db, (tx) => {
    const target = tx.select({ role: users.role, ...owner }).from(users).where(eq(users.id, input.userId)).get();
    if (!target) throw new HttpError(404, 'Member not found', { errors: { userId: 'Member not found' } });
    if (target.role !== 'member' && target.role !== 'dev') {
      throw new HttpError(422, 'Bonus can only be sent to a member.', { errors: { userId: 'Bonus can only be sent to a member.' } });
    }
    if (balanceBigOf(tx, input.userId) + BigInt(input.nominal) > BigInt(MAX_BALANCE)) {
      const msg = `Saldo member akan melewati batas ${rupiah(MAX_BALANCE)}.`;
      throw new HttpError(422, msg, { errors: { nominal: msg } });
    }
    const row = tx.insert(bonuses).values({ userId: input.userId, adminId: caller.id, nominal: input.nominal, reason: input.reason }).returning().get();
    writeAudit(tx, caller.id, input.userId, 'bonus.create', { bonusId: row.id, nominal: row.nominal, reason: row.reason });
    return bonusView(row, target);
  });
  publishBalance(ctx, view.userId);
  return { msg: 'Bonus berhasil dikirim.', bonus: view };
}

/** Refused when taking the bonus back would leave the member's balance below zero. */
export function deleteBonus(ctx: AppContext, caller: AuthUser, id: number) {
  const userId = moneyTransactionSync(ctx.db, (tx) => {
    const row = tx.select().from(bonuses).where(eq(bonuses.id, id)).get();
    if (!row) throw new HttpError(404, 'Bonus not found');
    const after = Number(balanceBigOf(tx, row.userId) - BigInt(row.nominal));
    if (after < 0) {
      throw new HttpError(
        409,
        `Bonus tidak dapat dihapus: saldo member akan menjadi minus (Rp ${after.toLocaleString('id-ID')}) karena sudah dipakai untuk penarikan.`,
      );
    }
    tx.delete(bonuses).where(eq(bonuses.id, id)).run();
    writeAudit(tx, caller.id, row.userId, 'bonus.delete', { bonusId: row.id, nominal: row.nominal, reason: row.reason });
    return row.userId;
  });
  publishBalance(ctx, userId);
  return { msg: 'Bonus berhasil dihapus.' };
}

export function bonusesPerPage(ctx: AppContext, page: number, userId: number | null) {
  const where = userId !== null ? eq(bonuses.userId, userId) : undefined;
  const total = ctx.db.select({ n: count() }).from(bonuses).where(where).get()?.n ?? 0;
  const { limit, offset } = pageWindow(page);
  const rows = ctx.db
    .select({ b: bonuses, u: owner })
    .from(bonuses)
    .leftJoin(users, eq(users.id, bonuses.userId))
    .where(where)
    .orderBy(desc(bonuses.createdAt), desc(bonuses.id))
    .limit(limit)
    .offset(offset)
    .all();
  return paged(
    rows.map((r) => bonusView(r.b, r.u)),
    total,
    page,
  );
}
