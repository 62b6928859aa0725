import type { EngineStore, RawLevel, RawMember, RawSettings, RawTemplate } from './store';
import { MAX_ATTEMPTS_DEFAULT } from './retry';

/**
 * What the rules read on every send (settings, levels, active templates), read once per engine
 * tick: one tick sees one consistent version, and an admin's change applies from the next tick
 * on without any invalidation hook.
 */
export interface RuleSnapshot {
  settings: RawSettings;
  /** Ordered by requirement_blast ascending. */
  levels: RawLevel[];
  templates: RawTemplate[];
}

export async function readSnapshot(store: EngineStore): Promise<RuleSnapshot> {
  const rows = await store.rules();
  const settings = rows.settings ?? { interval_min: 1, interval_max: 2, price: 0, referral_percent: 0, recipient_cooldown_hours: 24, max_attempts: MAX_ATTEMPTS_DEFAULT, send_from: '08:00', send_to: '20:00', time_zone: 'Asia/Jakarta' };
  return { settings, levels: rows.levels, templates: rows.templates };
}

/**
 * DESIGN's fee rule, on a snapshot: the member's own blast_fee when above 0, else the fee of the
 * level with the highest requirement_blast not above their successful messages so far, else the
 * settings price. (money/levels.ts `feeFor` states the same rule against the database; a test
 * keeps the two equal.)
 */
export function feeOn(snap: RuleSnapshot, member: Pick<RawMember, 'blast_fee' | 'total_success'>): number {
  if (member.blast_fee !== null && member.blast_fee > 0) return member.blast_fee;
  let fee: number | null = null;
  for (const level of snap.levels) {
    if (level.requirement_blast > member.total_success) break;
    fee = level.blast_fee;
  }
  return fee ?? snap.settings.price;
}

/**
 * Seconds between two sends: an operator's interval for the account, else a draw from the member's
 * range, else from settings'. An interval the owner set (`own_interval`) may only lengthen that draw.
 */
export function intervalSeconds(
  snap: RuleSnapshot,
  account: { interval: number | null; own_interval?: number | boolean },
  member: Pick<RawMember, 'blast_interval_min' | 'blast_interval_max'> | undefined,
  random: () => number = Math.random,
): number {
  if (account.interval !== null && !account.own_interval) return account.interval;
  let min = snap.settings.interval_min;
  let max = snap.settings.interval_max;
  if (member && member.blast_interval_min !== null && member.blast_interval_max !== null) {
    min = member.blast_interval_min;
    max = member.blast_interval_max;
  }
  max = Math.max(min, max);
  const drawn = min + Math.floor(random() * (max - min + 1));
  return account.interval !== null ? Math.max(account.interval, drawn) : drawn;
}

export function cooldownCutoff(snap: RuleSnapshot, now: number): number {
  return now - snap.settings.recipient_cooldown_hours * 3_600_000;
}
