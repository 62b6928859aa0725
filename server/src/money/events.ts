import type { AppContext } from '../context';
import { moneySummary } from './balance';

/**
 * After a committed money change: the member's channel and 'admin' get the absolute figures
 * (income, bonuses, referral credits, withdrawals, balance), never a delta.
 */
export async function publishBalance(ctx: AppContext, userId: number): Promise<void> {
  ctx.realtime.toUserAndAdmin(userId, 'balance', await moneySummary(ctx.db, userId));
}
