import { asc, eq } from 'drizzle-orm';
import type { AuthUser } from '../auth/middleware';
import type { AppContext } from '../context';
import { generatorResults, generators } from '../db/schema';
import { HttpError } from '../lib/errors';
import { generatorJob } from '../engine/jobs';
import { accountForJob } from '../engine/jobs/access';
import { checkIntervals, type JobListInput } from '../engine/jobs/rules';
import { editedSettings, jobStore } from '../engine/jobs/store';
import { MAX_JOB_NUMBERS, RANGE_ORDER_MESSAGE } from '../../../common/jobs';
import { normalizePhone } from '../../../common/phone';
import { defaultCountry } from '../settings/service';
import type { GeneratorInput } from './schema';
import { generatorView } from './view';

const store = jobStore({
  table: generators,
  kind: generatorJob,
  notFound: 'Generator not found',
  finishedMessage: 'Generator sudah selesai',
  searchColumns: [generators.startNumber, generators.endNumber, generators.currentNumber],
  view: generatorView,
});
const { reachable, withAccount } = store;

/** Why a range is refused when a number inside it is not one of the plan. */
export const rangeOutsidePlan = (number: string) => `Range nomor keluar dari rencana penomoran: ${number} bukan nomor yang valid. Pilih range di dalam satu blok nomor yang valid.`;
export const RANGE_SAME_PLAN = 'Target Nomor Awal dan Akhir harus dari negara yang sama dan sama panjang.';

/**
 * The range in international digits; start ≤ end; at most MAX_JOB_NUMBERS numbers, every one of them
 * valid in the numbering plan (the memoised normaliser checks 100,000 numbers in well under a second).
 */
async function parseRange(ctx: AppContext, input: Pick<GeneratorInput, 'start_number' | 'end_number'>): Promise<{ start: string; end: string; total: number }> {
  const country = await defaultCountry(ctx.db);
  const errors: Record<string, string> = {};
  const read = (field: 'start_number' | 'end_number', label: string): string | null => {
    const r = normalizePhone(input[field], country);
    if (r.ok) return r.number;
    errors[field] = `${label}: ${r.message}`;
    return null;
  };
  const start = read('start_number', 'Target Nomor Awal');
  const end = read('end_number', 'Target Nomor Akhir');
  if (!start || !end) throw new HttpError(422, Object.values(errors)[0]!, { errors });
  const size = BigInt(end) - BigInt(start) + 1n;
  if (size < 1n) throw new HttpError(422, RANGE_ORDER_MESSAGE, { errors: { start_number: RANGE_ORDER_MESSAGE } });
  if (start.length !== end.length) throw new HttpError(422, RANGE_SAME_PLAN, { errors: { end_number: RANGE_SAME_PLAN } });
  if (size > BigInt(MAX_JOB_NUMBERS)) {
    const msg = `Range paling banyak ${MAX_JOB_NUMBERS.toLocaleString('id-ID')} nomor per generator`;
    throw new HttpError(422, msg, { errors: { end_number: msg } });
  }
  // E.164 has at most 15 digits, so plain numbers count exactly.
  const first = Number(start);
  for (let i = 0; i < Number(size); i++) {
    const n = String(first + i);
    const r = normalizePhone(`+${n}`);
    if (!r.ok || r.number !== n) {
      const msg = rangeOutsidePlan(n);
      throw new HttpError(422, msg, { errors: { [i === 0 ? 'start_number' : 'end_number']: msg } });
    }
  }
  return { start, end, total: Number(size) };
}

export async function listGenerators(ctx: AppContext, caller: AuthUser, input: JobListInput) {
  return await store.list(ctx, caller, input);
}

export async function getGenerator(ctx: AppContext, caller: AuthUser, id: number) {
  return { generator: await withAccount(ctx, await reachable(ctx, caller, id)) };
}

export async function createGenerator(ctx: AppContext, caller: AuthUser, input: GeneratorInput) {
  const range = await parseRange(ctx, input);
  checkIntervals(input.interval_min, input.interval_max);
  const account = await accountForJob(ctx, caller, input.whatsapp_id);
  const [row] = await ctx.db
    .insert(generators)
    .values({
      userId: caller.id,
      whatsappId: account.id,
      startNumber: range.start,
      endNumber: range.end,
      total: range.total,
      bInsert: input.b_insert,
      intervalMin: input.interval_min,
      intervalMax: input.interval_max,
    })
    .returning();
  if (!row) throw new Error('generator insert returned no row');
  return { generator: generatorView(row, account), msg: 'Generator berhasil dibuat' };
}

/** Edits intervals, account and b_insert at any time; the range only before the first number is checked. */
export async function updateGenerator(ctx: AppContext, caller: AuthUser, id: number, input: GeneratorInput) {
  const row = await reachable(ctx, caller, id);
  // The edit screen sends the stored range back (its fields are disabled): kept as it is, since a
  // stored foreign range need not read back under the default country.
  const unchanged = String(input.start_number).trim() === row.startNumber && String(input.end_number).trim() === row.endNumber;
  const range = unchanged ? { start: row.startNumber, end: row.endNumber, total: row.total } : await parseRange(ctx, input);
  checkIntervals(input.interval_min, input.interval_max);
  const rangeChanged = range.start !== row.startNumber || range.end !== row.endNumber;
  if (rangeChanged && (row.checked > 0 || row.status === 'sending')) {
    throw new HttpError(409, 'Range nomor tidak dapat diubah setelah generator berjalan');
  }
  const settings = await editedSettings(ctx, caller, row, input);
  const [updated] = await ctx.db
    .update(generators)
    .set({
      ...settings,
      ...(rangeChanged ? { startNumber: range.start, endNumber: range.end, total: range.total, currentNumber: null, state: null } : {}),
    })
    .where(eq(generators.id, row.id))
    .returning();
  if (!updated) throw new HttpError(404, 'Generator not found');
  return { generator: await withAccount(ctx, updated), msg: 'Generator berhasil diperbarui' };
}

/** Delete stops the job (its loop finds the row gone) and removes its results with it. */
export async function deleteGenerator(ctx: AppContext, caller: AuthUser, id: number) {
  await store.remove(ctx, caller, id);
  return { msg: 'Generator berhasil dihapus' };
}

export async function startGenerator(ctx: AppContext, caller: AuthUser, id: number) {
  return { generator: await store.start(ctx, caller, id), msg: 'Generator dimulai' };
}

/** Stop pauses after the number being checked; Start resumes from the next one. */
export async function stopGenerator(ctx: AppContext, caller: AuthUser, id: number) {
  return { generator: await store.stop(ctx, caller, id), msg: 'Generator dihentikan' };
}

/** The registered numbers found, in the order they were found. */
export async function generatorResultRows(ctx: AppContext, caller: AuthUser, id: number) {
  const row = await reachable(ctx, caller, id);
  const list = await ctx.db
    .select({ number: generatorResults.number, name: generatorResults.name })
    .from(generatorResults)
    .where(eq(generatorResults.generatorId, row.id))
    .orderBy(asc(generatorResults.id));
  return { list };
}
