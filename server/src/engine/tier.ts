import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rawAll } from '../db/raw';

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

const DAY_MS = 86_400_000;

/**
 * The numbers one account reached in a rolling 24 hours, each with its latest accepted send, kept in
 * memory: read from the log once, then fed by the loop's own sends and expired as the window moves.
 */
export class RecipientWindow {
  private readonly latest = new Map<string, number>();
  /** Sends in time order; entries before `head` have left the window. */
  private queue: Array<{ at: number; number: string }> = [];
  private head = 0;

  add(number: string, at: number): void {
    this.latest.set(number, at);
    this.queue.push({ at, number });
  }

  /** Different numbers reached after `now` - 24 h. */
  size(now: number): number {
    const cutoff = now - DAY_MS;
    while (this.head < this.queue.length && this.queue[this.head]!.at < cutoff) {
      const { at, number } = this.queue[this.head++]!;
      if (this.latest.get(number) === at) this.latest.delete(number);
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return this.latest.size;
  }

  /** The account's window as its log holds it now. */
  static async read(db: Db, accountId: number, now: number): Promise<RecipientWindow> {
    const rows = await rawAll<{ number: string; at: number | string }>(
      db,
      sql`SELECT number, max(created_at) AS at FROM message_logs
          WHERE whatsapp_id = ${accountId} AND success = 1 AND created_at >= ${now - DAY_MS}
          GROUP BY number ORDER BY at`,
    );
    const w = new RecipientWindow();
    for (const r of rows) w.add(r.number, Number(r.at));
    return w;
  }
}

/**
 * Per account with a limited tier, the recipients counted against it: read from the log when its blast
 * starts (once per loop), then counted from the loop's own accepted sends, so nothing is read from the
 * database while it sends. An account is sent from one loop on one node at a time (leases), so the
 * window read at start stays exact; it is dropped when the loop ends.
 */
export class TierGuard {
  private readonly windows = new Map<number, RecipientWindow>();

  constructor(private readonly db: Db) {}

  /** Whether the account may start one more conversation now; `fresh` reads the log again first. */
  async allows(accountId: number, tier: string | null | undefined, fresh = false): Promise<boolean> {
    const limit = tierLimit(tier);
    if (!Number.isFinite(limit)) return true;
    const now = Date.now();
    let w = fresh ? undefined : this.windows.get(accountId);
    if (!w) {
      w = await RecipientWindow.read(this.db, accountId, now);
      this.windows.set(accountId, w);
    }
    return w.size(now) < limit;
  }

  /** An accepted send to `number`. */
  sent(accountId: number, number: string, at = Date.now()): void {
    this.windows.get(accountId)?.add(number, at);
  }

  /** The account's loop ended: the next start reads the log again. */
  forget(accountId: number): void {
    this.windows.delete(accountId);
  }
}
