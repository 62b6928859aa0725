import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rawGet } from '../db/raw';

/**
 * Meta's messaging limit tiers: how many different people a business number may start conversations
 * with in a rolling 24 hours. A number whose tier is unknown is not limited here (Meta still is).
 */
const TIER_LIMITS: Record<string, number> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1_000,
  TIER_2K: 2_000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: Number.POSITIVE_INFINITY,
};

export const TIER_REACHED = 'Batas harian nomor ini dari Meta (tier) sudah tercapai. Blast dapat dilanjutkan setelah 24 jam.';

export function tierLimit(tier: string | null | undefined): number {
  return (tier && TIER_LIMITS[tier.toUpperCase()]) || Number.POSITIVE_INFINITY;
}

/** Different numbers the account reached (accepted sends) in the last 24 hours. */
export async function recipientsLast24h(db: Db, accountId: number, now = Date.now()): Promise<number> {
  const row = await rawGet<{ n: number | string }>(
    db,
    sql`SELECT count(DISTINCT number) AS n FROM message_logs WHERE whatsapp_id = ${accountId} AND success = 1 AND created_at >= ${now - 86_400_000}`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Per account, the recipients counted against its tier: read from the log at most every 30 s and
 * counted up locally in between, so the loop asks the database rarely.
 */
export class TierGuard {
  private readonly counts = new Map<number, { n: number; at: number }>();

  constructor(private readonly db: Db) {}

  /** Whether the account may start one more conversation now. */
  async allows(accountId: number, tier: string | null | undefined): Promise<boolean> {
    const limit = tierLimit(tier);
    if (!Number.isFinite(limit)) return true;
    const now = Date.now();
    let c = this.counts.get(accountId);
    if (!c || now - c.at > 30_000) {
      c = { n: await recipientsLast24h(this.db, accountId, now), at: now };
      this.counts.set(accountId, c);
    }
    return c.n < limit;
  }

  /** One more accepted send (a new recipient, at worst). */
  sent(accountId: number): void {
    const c = this.counts.get(accountId);
    if (c) c.n += 1;
  }
}
