import { and, asc, count, eq, ne } from 'drizzle-orm';
import type { AppContext } from '../context';
import { moneyTransaction, transaction, type Db } from '../db/client';
import { one } from '../db/raw';
import { levels } from '../db/schema';
import { HttpError } from '../lib/errors';
import { paged, pageWindow } from '../lib/paging';
import { splitList } from '../money/levels';
import { getSettings } from '../settings/service';
import type { LevelInput } from './schema';
import { writeAudit } from '../audit/service';

type LevelRow = typeof levels.$inferSelect;

/** A level as the API shows it; its colour is settings.colors at its index by requirement. */
export function levelView(l: LevelRow, index: number, colors: string[]) {
  return {
    id: l.id,
    name: l.name,
    blast_fee: l.blastFee,
    requirement_blast: l.requirementBlast,
    color: colors.length && index >= 0 ? colors[index % colors.length]! : null,
    createdAt: l.createdAt,
  };
}

const byRequirement = [asc(levels.requirementBlast), asc(levels.id)] as const;

async function indexOf(db: Db, id: number): Promise<number> {
  return (await db.select({ id: levels.id }).from(levels).orderBy(...byRequirement)).findIndex((l) => l.id === id);
}

async function getRow(db: Db, id: number): Promise<LevelRow> {
  const row = await one(db.select().from(levels).where(eq(levels.id, id)).limit(1));
  if (!row) throw new HttpError(404, 'Level not found');
  return row;
}

/** Two levels with the same requirement would make the member's level ambiguous. */
async function assertRequirementFree(db: Db, requirement: number, exceptId: number | null): Promise<void> {
  const clash = await one(
    db
      .select({ id: levels.id })
      .from(levels)
      .where(and(eq(levels.requirementBlast, requirement), exceptId !== null ? ne(levels.id, exceptId) : undefined))
      .limit(1),
  );
  if (clash) {
    const msg = 'Syarat Minimal Blast sudah dipakai level lain.';
    throw new HttpError(409, msg, { errors: { requirement_blast: msg } });
  }
}

export async function levelsPerPage(ctx: AppContext, page: number) {
  const total = (await one(ctx.db.select({ n: count() }).from(levels)))?.n ?? 0;
  const { limit, offset } = pageWindow(page);
  const colors = splitList((await getSettings(ctx.db)).colors);
  const rows = await ctx.db.select().from(levels).orderBy(...byRequirement).limit(limit).offset(offset);
  return paged(
    rows.map((l, i) => levelView(l, offset + i, colors)),
    total,
    page,
  );
}

export async function getLevel(ctx: AppContext, id: number) {
  const row = await getRow(ctx.db, id);
  return { level: levelView(row, await indexOf(ctx.db, id), splitList((await getSettings(ctx.db)).colors)) };
}

const levelDetails = (l: { id: number; name: string; blastFee: number; requirementBlast: number }) => ({
  levelId: l.id,
  name: l.name,
  blast_fee: l.blastFee,
  requirement_blast: l.requirementBlast,
});

/**
 * The requirement check, the change and its audit row are one money transaction (a level sets fees), so two
 * saves cannot both pass the check: on PostgreSQL a plain transaction reads under READ COMMITTED, where two
 * saves at once each see no clash and both insert; SERIALIZABLE makes one of them retry and meet the other.
 */
export async function createLevel(ctx: AppContext, actorId: number, input: LevelInput) {
  const row = await moneyTransaction(ctx.db, async (tx) => {
    await assertRequirementFree(tx, input.requirement_blast, null);
    const [created] = await tx
      .insert(levels)
      .values({ name: input.name, blastFee: input.blast_fee, requirementBlast: input.requirement_blast })
      .returning();
    await writeAudit(tx, actorId, null, 'level.create', levelDetails(created!));
    return created!;
  });
  return { ...(await getLevel(ctx, row.id)), msg: 'Level berhasil disimpan.' };
}

export async function updateLevel(ctx: AppContext, actorId: number, id: number, input: LevelInput) {
  await moneyTransaction(ctx.db, async (tx) => {
    const before = await getRow(tx, id);
    await assertRequirementFree(tx, input.requirement_blast, id);
    const [after] = await tx
      .update(levels)
      .set({ name: input.name, blastFee: input.blast_fee, requirementBlast: input.requirement_blast })
      .where(eq(levels.id, id))
      .returning();
    await writeAudit(tx, actorId, null, 'level.update', { from: levelDetails(before), to: levelDetails(after!) });
  });
  return { ...(await getLevel(ctx, id)), msg: 'Level berhasil diperbarui.' };
}

export async function deleteLevel(ctx: AppContext, actorId: number, id: number) {
  await transaction(ctx.db, async (tx) => {
    const row = await getRow(tx, id);
    await tx.delete(levels).where(eq(levels.id, id));
    await writeAudit(tx, actorId, null, 'level.delete', levelDetails(row));
  });
  return { msg: 'Level berhasil dihapus.' };
}
