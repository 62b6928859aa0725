import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { validatorItems, validators } from '../../db/schema';
import { transaction } from '../../db/client';
import { changes, one } from '../../db/raw';
import { validatorData, type ValidatorRow } from '../../validators/view';
import { addToPhoneList } from './phone-list';
import type { JobKind } from './types';

/** Thrown inside a commit to roll it back when another writer got there first. */
class Superseded extends Error {}

/** Validators walk their file's rows in file order; a row is done once its `result` is set. */
export const validatorJob: JobKind<ValidatorRow> = {
  type: 'validator',
  runningState: 'validating',
  errorEvent: 'error_validate',

  load: (ctx, id) => one(ctx.db.select().from(validators).where(eq(validators.id, id))),

  sendingIds: async (ctx) =>
    (await ctx.db.select({ id: validators.id }).from(validators).where(eq(validators.status, 'sending')).orderBy(validators.id)).map((r) => r.id),

  next: async (ctx, job) => {
    const item = await one(
      ctx.db
        .select()
        .from(validatorItems)
        .where(and(eq(validatorItems.validatorId, job.id), isNull(validatorItems.result)))
        .orderBy(asc(validatorItems.seq))
        .limit(1),
    );
    if (!item) return null;
    return { number: item.number, name: item.name, itemId: item.id, ...(item.reason ? { invalid: item.reason } : {}) };
  },

  commit: async (ctx, job, target, outcome) => {
    try {
      return await transaction(ctx.db, async (tx) => {
        const registered = outcome.result === 'registered';
        const [updated] = await tx
          .update(validators)
          .set({
            checked: sql`${validators.checked} + 1`,
            countSuccess: sql`${validators.countSuccess} + ${registered ? 1 : 0}`,
            countFail: sql`${validators.countFail} + ${registered ? 0 : 1}`,
          })
          .where(and(eq(validators.id, job.id), eq(validators.checked, job.checked)))
          .returning({ bInsert: validators.bInsert });
        if (!updated || target.itemId === undefined) return false;
        let reason: string | null = null;
        let resultName: string | null = null;
        if (outcome.result === 'registered') {
          resultName = outcome.pushname;
          if (updated.bInsert) {
            const saved = await addToPhoneList(tx, target.number, target.name || outcome.pushname || '');
            if (saved === 'opted_out') reason = 'opted out';
            else if (saved === 'exists') reason = 'already in the list';
          }
        } else if (outcome.result === 'invalid' || outcome.result === 'failed') {
          reason = outcome.reason;
        }
        const marked = await tx
          .update(validatorItems)
          .set({ result: outcome.result, reason, resultName })
          .where(and(eq(validatorItems.id, target.itemId), isNull(validatorItems.result)));
        if (changes(marked) === 0) throw new Superseded();
        return true;
      });
    } catch (err) {
      if (err instanceof Superseded) return false;
      throw err;
    }
  },

  setRun: async (ctx, id, status, state) => (await ctx.db.update(validators).set({ status, state }).where(eq(validators.id, id)).returning())[0],

  eventData: (job) => validatorData(job),
};
