import { eq, sql } from 'drizzle-orm';
import { transaction, type Db } from '../../server/src/db/client';
import { messageLogs, settings, users, whatsapps } from '../../server/src/db/schema';
import { creditReferral } from '../../server/src/money/referral';

/**
 * Records send attempts the way the blast engine does: one message-log row per attempt with the
 * income it earned, the member's (and account's) running totals, and the referral credit, all in
 * one transaction.
 */
export function recordSends(
  db: Db,
  userId: number,
  attempts: Array<{ success: boolean; income: number }>,
  whatsappId: number | null = null,
): Promise<number[]> {
  return transaction(db, async (tx) => {
    const ids: number[] = [];
    for (const [i, a] of attempts.entries()) {
      const income = a.success ? a.income : 0;
      const [log] = await tx
        .insert(messageLogs)
        .values({ userId, whatsappId, number: `62812000${String(i).padStart(5, '0')}`, success: a.success, income })
        .returning({ id: messageLogs.id });
      await tx
        .update(users)
        .set(
          a.success
            ? { totalSuccess: sql`${users.totalSuccess} + 1`, income: sql`${users.income} + ${income}` }
            : { totalFail: sql`${users.totalFail} + 1` },
        )
        .where(eq(users.id, userId));
      if (whatsappId !== null) {
        await tx
          .update(whatsapps)
          .set(
            a.success
              ? { countSuccess: sql`${whatsapps.countSuccess} + 1`, income: sql`${whatsapps.income} + ${income}` }
              : { countFail: sql`${whatsapps.countFail} + 1` },
          )
          .where(eq(whatsapps.id, whatsappId));
      }
      if (a.success) await creditReferral(tx, userId, income, log!.id);
      ids.push(log!.id);
    }
    return ids;
  });
}

/** `n` successful sends earning `fee` each. */
export const earn = (db: Db, userId: number, n: number, fee: number) =>
  recordSends(db, userId, Array.from({ length: n }, () => ({ success: true, income: fee })));

export async function setReferralPercent(db: Db, percent: number): Promise<void> {
  await db.update(settings).set({ referralPercent: percent }).where(eq(settings.id, 1));
}

export async function setBank(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ accountBank: 'BCA', accountNumber: '1234567890', accountName: 'Pemilik Rekening' }).where(eq(users.id, userId));
}
