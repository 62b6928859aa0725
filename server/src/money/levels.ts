import { asc } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { levels } from '../db/schema';
import { getSettings } from '../settings/service';

export interface LevelInfo {
  id: number;
  name: string;
  blast_fee: number;
  requirement_blast: number;
  color: string | null;
}

export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The member's level: the one with the highest requirement_blast not above their total
 * successful messages. Its colour is settings.colors at the level's index by requirement.
 */
export function levelFor(db: Db | Tx, totalSuccess: number): LevelInfo | null {
  const all = db.select().from(levels).orderBy(asc(levels.requirementBlast), asc(levels.id)).all();
  let index = -1;
  all.forEach((l, i) => {
    if (l.requirementBlast <= totalSuccess) index = i;
  });
  if (index < 0) return null;
  const level = all[index]!;
  const colors = splitList(getSettings(db).colors);
  return {
    id: level.id,
    name: level.name,
    blast_fee: level.blastFee,
    requirement_blast: level.requirementBlast,
    color: colors.length ? colors[index % colors.length]! : null,
  };
}

/**
 * Fee per successful message: the member's own blast_fee when above 0, else their level's fee,
 * else settings.price.
 */
export function feeFor(db: Db | Tx, member: { blastFee: number | null; totalSuccess: number }): number {
  if (member.blastFee !== null && member.blastFee > 0) return member.blastFee;
  const level = levelFor(db, member.totalSuccess);
  if (level) return level.blast_fee;
  return getSettings(db).price;
}

/** Seconds to wait between two sends of one account: member override, else settings. */
export function intervalRangeFor(
  db: Db | Tx,
  member: { blastIntervalMin: number | null; blastIntervalMax: number | null },
): { min: number; max: number } {
  if (member.blastIntervalMin !== null && member.blastIntervalMax !== null) {
    return { min: member.blastIntervalMin, max: Math.max(member.blastIntervalMin, member.blastIntervalMax) };
  }
  const s = getSettings(db);
  return { min: s.intervalMin, max: Math.max(s.intervalMin, s.intervalMax) };
}
