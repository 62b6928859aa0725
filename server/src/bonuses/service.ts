import { and, count, desc, eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { AuthUser } from '../auth/middleware';
import { moneyTransaction } from '../db/client';
import { KEY_REUSED, onceByKey } from '../lib/request-key';
import { one } from '../db/raw';
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
export async function createBonus(ctx: AppContext, caller: AuthUser, input: BonusCreate, key: string | null = null) {
  if (input.userId === caller.id) throw new HttpError(403, SELF_BONUS_MSG, { errors: { userId: SELF_BONUS_MSG } });
  const { view, repeated } = await onceByKey(key, 'bonuses', () => moneyTransaction(ctx.db, async (tx) => {
    const target = await one(tx.select({ role: users.role, ...owner }).from(users).where(eq(users.id, input.userId)).limit(1));
    if (!target) throw new HttpError(404, 'Member not found', { errors: { userId: 'Member not found' } });
    // The same bonus sent again (a retry after a lost answer): the bonus it already made.
    if (key !== null) {
      const earlier = await one(tx.select().from(bonuses).where(and(eq(bonuses.adminId, caller.id), eq(bonuses.requestKey, key))).limit(1));
      if (earlier && (earlier.userId !== input.userId || earlier.nominal !== input.nominal || earlier.reason !== input.reason)) throw new HttpError(409, KEY_REUSED);
      if (earlier) return { view: bonusView(earlier, target), repeated: true };
    }
    if (target.role !== 'member' && target.role !== 'dev') {
      throw new HttpError(422, 'Bonus can only be sent to a member.', { errors: { userId: 'Bonus can only be sent to a member.' } });
    }
    if ((await balanceBigOf(tx, input.userId)) + BigInt(input.nominal) > BigInt(MAX_BALANCE)) {
      const msg = `Saldo member akan melewati batas ${rupiah(MAX_BALANCE)}.`;
      throw new HttpError(422, msg, { errors: { nominal: msg } });
    }
    const [row] = await tx.insert(bonuses).values({ userId: input.userId, adminId: caller.id, nominal: input.nominal, reason: input.reason, requestKey: key }).returning();
    await writeAudit(tx, caller.id, input.userId, 'bonus.create', { bonusId: row!.id, nominal: row!.nominal, reason: row!.reason });
    return { view: bonusView(row!, target), repeated: false };
  }));
  if (!repeated) await publishBalance(ctx, view.userId);
  return { msg: 'Bonus berhasil dikirim.', bonus: view };
}

/** Refused when taking the bonus back would leave the member's balance below zero. */
export async function deleteBonus(ctx: AppContext, caller: AuthUser, id: number) {
  const userId = await moneyTransaction(ctx.db, async (tx) => {
    const row = await one(tx.select().from(bonuses).where(eq(bonuses.id, id)).limit(1));
    if (!row) throw new HttpError(404, 'Bonus not found');
    const after = Number((await balanceBigOf(tx, row.userId)) - BigInt(row.nominal));
    if (after < 0) {
      throw new HttpError(
        409,
        `Bonus tidak dapat dihapus: saldo member akan menjadi minus (Rp ${after.toLocaleString('id-ID')}) karena sudah dipakai untuk penarikan.`,
      );
    }
    await tx.delete(bonuses).where(eq(bonuses.id, id));
    await writeAudit(tx, caller.id, row.userId, 'bonus.delete', { bonusId: row.id, nominal: row.nominal, reason: row.reason });
    return row.userId;
  });
  await publishBalance(ctx, userId);
  return { msg: 'Bonus berhasil dihapus.' };
}

export async function bonusesPerPage(ctx: AppContext, page: number, userId: number | null) {
  const where = userId !== null ? eq(bonuses.userId, userId) : undefined;
  const total = (await one(ctx.db.select({ n: count() }).from(bonuses).where(where)))?.n ?? 0;
  const { limit, offset } = pageWindow(page);
  const rows = await ctx.db
    .select({ b: bonuses, u: owner })
    .from(bonuses)
    .leftJoin(users, eq(users.id, bonuses.userId))
    .where(where)
    .orderBy(desc(bonuses.createdAt), desc(bonuses.id))
    .limit(limit)
    .offset(offset);
  return paged(
    rows.map((r) => bonusView(r.b, r.u)),
    total,
    page,
  );
}
