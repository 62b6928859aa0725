import { and, asc, count, eq, ne } from 'drizzle-orm';
import type { AppContext } from '../context';
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

function indexOf(ctx: AppContext, id: number): number {
  return ctx.db.select({ id: levels.id }).from(levels).orderBy(...byRequirement).all().findIndex((l) => l.id === id);
}

function getRow(ctx: AppContext, id: number): LevelRow {
  const row = ctx.db.select().from(levels).where(eq(levels.id, id)).get();
  if (!row) throw new HttpError(404, 'Level not found');
  return row;
}

/** Two levels with the same requirement would make the member's level ambiguous. */
function assertRequirementFree(ctx: AppContext, requirement: number, exceptId: number | null): void {
  const clash = ctx.db
    .select({ id: levels.id })
    .from(levels)
    .where(and(eq(levels.requirementBlast, requirement), exceptId !== null ? ne(levels.id, exceptId) : undefined))
    .get();
  if (clash) {
    const msg = 'Syarat Minimal Blast sudah dipakai level lain.';
    throw new HttpError(409, msg, { errors: { requirement_blast: msg } });
  }
}

export function levelsPerPage(ctx: AppContext, page: number) {
  const total = ctx.db.select({ n: count() }).from(levels).get()?.n ?? 0;
  const { limit, offset } = pageWindow(page);
  const colors = splitList(getSettings(ctx.db).colors);
  const rows = ctx.db.select().from(levels).orderBy(...byRequirement).limit(limit).offset(offset).all();
  return paged(
    rows.map((l, i) => levelView(l, offset + i, colors)),
    total,
    page,
  );
}

export function getLevel(ctx: AppContext, id: number) {
  const row = getRow(ctx, id);
  return { level: levelView(row, indexOf(ctx, id), splitList(getSettings(ctx.db).colors)) };
}

const levelDetails = (l: { id: number; name: string; blastFee: number; requirementBlast: number }) => ({
  levelId: l.id,
  name: l.name,
  blast_fee: l.blastFee,
  requirement_blast: l.requirementBlast,
});

export function createLevel(ctx: AppContext, actorId: number, input: LevelInput) {
  assertRequirementFree(ctx, input.requirement_blast, null);
  const row = ctx.db.transaction((tx) => {
    const created = tx
      .insert(levels)
      .values({ name: input.name, blastFee: input.blast_fee, requirementBlast: input.requirement_blast })
      .returning()
      .get();
    writeAudit(tx, actorId, null, 'level.create', levelDetails(created));
    return created;
  });
  return { ...getLevel(ctx, row.id), msg: 'Level berhasil disimpan.' };
}

export function updateLevel(ctx: AppContext, actorId: number, id: number, input: LevelInput) {
  const before = getRow(ctx, id);
  assertRequirementFree(ctx, input.requirement_blast, id);
  ctx.db.transaction((tx) => {
    const after = tx
      .update(levels)
      .set({ name: input.name, blastFee: input.blast_fee, requirementBlast: input.requirement_blast })
      .where(eq(levels.id, id))
      .returning()
      .get();
    writeAudit(tx, actorId, null, 'level.update', { from: levelDetails(before), to: levelDetails(after) });
  });
  return { ...getLevel(ctx, id), msg: 'Level berhasil diperbarui.' };
}

export function deleteLevel(ctx: AppContext, actorId: number, id: number) {
  const row = getRow(ctx, id);
  ctx.db.transaction((tx) => {
    tx.delete(levels).where(eq(levels.id, id)).run();
    writeAudit(tx, actorId, null, 'level.delete', levelDetails(row));
  });
  return { msg: 'Level berhasil dihapus.' };
}
