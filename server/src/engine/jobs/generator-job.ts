import { and, eq, sql } from 'drizzle-orm';
import { generatorResults, generators } from '../../db/schema';
import { transaction } from '../../db/client';
import { one } from '../../db/raw';
import { generatorData, type GeneratorRow } from '../../generators/view';
import { addToPhoneList } from './phone-list';
import type { JobKind } from './types';

/** The number at a position of a generator's range (positions from 0). */
export function rangeNumber(start: string, position: number): string {
  return (BigInt(start) + BigInt(position)).toString();
}

/** Generators walk start_number … end_number in order; position = checked. */
export const generatorJob: JobKind<GeneratorRow> = {
  type: 'generator',
  runningState: 'generating',
  errorEvent: 'error_generate',

  load: (ctx, id) => one(ctx.db.select().from(generators).where(eq(generators.id, id))),

  sendingIds: async (ctx) =>
    (await ctx.db.select({ id: generators.id }).from(generators).where(eq(generators.status, 'sending')).orderBy(generators.id)).map((r) => r.id),

  next: async (_ctx, job) => ({ number: rangeNumber(job.startNumber, job.checked), name: '' }),

  commit: (ctx, job, target, outcome) =>
    transaction(ctx.db, async (tx) => {
      const registered = outcome.result === 'registered';
      const [updated] = await tx
        .update(generators)
        .set({
          checked: sql`${generators.checked} + 1`,
          countSuccess: sql`${generators.countSuccess} + ${registered ? 1 : 0}`,
          countFail: sql`${generators.countFail} + ${registered ? 0 : 1}`,
          currentNumber: target.number,
        })
        .where(and(eq(generators.id, job.id), eq(generators.checked, job.checked)))
        .returning({ bInsert: generators.bInsert });
      if (!updated) return false;
      if (outcome.result === 'registered') {
        const name = outcome.pushname ?? '';
        await tx.insert(generatorResults).values({ generatorId: job.id, number: target.number, name }).onConflictDoNothing();
        if (updated.bInsert) await addToPhoneList(tx, target.number, name);
      }
      return true;
    }),

  setRun: async (ctx, id, status, state) => (await ctx.db.update(generators).set({ status, state }).where(eq(generators.id, id)).returning())[0],

  eventData: (job) => generatorData(job),
};
