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
 * The level table once, for deciding the level of many members: the one with the highest
 * requirement_blast not above their total successful messages. Its colour is settings.colors at the
 * level's index by requirement.
 */
export async function levelLadder(db: Db | Tx): Promise<(totalSuccess: number) => LevelInfo | null> {
  const all = await db.select().from(levels).orderBy(asc(levels.requirementBlast), asc(levels.id));
  const colors = all.length ? splitList((await getSettings(db)).colors) : [];
  return (totalSuccess) => {
    let index = -1;
    all.forEach((l, i) => {
      if (l.requirementBlast <= totalSuccess) index = i;
    });
    if (index < 0) return null;
    const level = all[index]!;
    return {
      id: level.id,
      name: level.name,
      blast_fee: level.blastFee,
      requirement_blast: level.requirementBlast,
      color: colors.length ? colors[index % colors.length]! : null,
    };
  };
}

/** The member's level (see levelLadder). */
export async function levelFor(db: Db | Tx, totalSuccess: number): Promise<LevelInfo | null> {
  return (await levelLadder(db))(totalSuccess);
}

/**
 * Fee per successful message: the member's own blast_fee when above 0, else their level's fee,
 * else settings.price.
 */
export async function feeFor(db: Db | Tx, member: { blastFee: number | null; totalSuccess: number }): Promise<number> {
  if (member.blastFee !== null && member.blastFee > 0) return member.blastFee;
  const level = await levelFor(db, member.totalSuccess);
  if (level) return level.blast_fee;
  return (await getSettings(db)).price;
}

/** Seconds to wait between two sends of one account: member override, else settings. */
export async function intervalRangeFor(
  db: Db | Tx,
  member: { blastIntervalMin: number | null; blastIntervalMax: number | null },
): Promise<{ min: number; max: number }> {
  if (member.blastIntervalMin !== null && member.blastIntervalMax !== null) {
    return { min: member.blastIntervalMin, max: Math.max(member.blastIntervalMin, member.blastIntervalMax) };
  }
  const s = await getSettings(db);
  return { min: s.intervalMin, max: Math.max(s.intervalMin, s.intervalMax) };
}
