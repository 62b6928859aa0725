import { and, eq, sql } from 'drizzle-orm';
import { generatorResults, generators } from '../../db/schema';
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

  load: (ctx, id) => ctx.db.select().from(generators).where(eq(generators.id, id)).get(),

  sendingIds: (ctx) =>
    ctx.db.select({ id: generators.id }).from(generators).where(eq(generators.status, 'sending')).all().map((r) => r.id),

  next: (_ctx, job) => ({ number: rangeNumber(job.startNumber, job.checked), name: '' }),

  commit: (ctx, job, target, outcome) =>
    ctx.db.transaction((tx) => {
      const registered = outcome.result === 'registered';
      const updated = tx
        .update(generators)
        .set({
          checked: sql`${generators.checked} + 1`,
          countSuccess: sql`${generators.countSuccess} + ${registered ? 1 : 0}`,
          countFail: sql`${generators.countFail} + ${registered ? 0 : 1}`,
          currentNumber: target.number,
        })
        .where(and(eq(generators.id, job.id), eq(generators.checked, job.checked)))
        .returning({ bInsert: generators.bInsert })
        .get();
      if (!updated) return false;
      if (outcome.result === 'registered') {
        const name = outcome.pushname ?? '';
        tx.insert(generatorResults).values({ generatorId: job.id, number: target.number, name }).onConflictDoNothing().run();
        if (updated.bInsert) addToPhoneList(ctx.db, tx, target.number, name);
      }
      return true;
    }),

  setRun: (ctx, id, status, state) =>
    ctx.db.update(generators).set({ status, state }).where(eq(generators.id, id)).returning().get(),

  eventData: (job) => generatorData(job),
};
