import { and, asc, count, desc, eq, or, sql } from 'drizzle-orm';
import type { AuthUser } from '../auth/middleware';
import type { AppContext } from '../context';
import { generatorResults, generators, whatsapps } from '../db/schema';
import { HttpError } from '../lib/errors';
import { likePattern, paged, pageWindow } from '../lib/paging';
import { generatorJob } from '../engine/jobs';
import { accountForJob, jobScope, reachableJob } from '../engine/jobs/access';
import { forgetJob, startJob, stopJob } from '../engine/jobs/control';
import { checkIntervals, statusCondition, type StatusFilterValue } from '../engine/jobs/rules';
import { MAX_JOB_NUMBERS, RANGE_ORDER_MESSAGE } from '../../../common/jobs';
import { normalizePhone } from '../../../common/phone';
import type { GeneratorInput } from './schema';
import { generatorView, type GeneratorRow } from './view';

const NOT_FOUND = 'Generator not found';

function load(ctx: AppContext, id: number): GeneratorRow | undefined {
  return ctx.db.select().from(generators).where(eq(generators.id, id)).get();
}

function reachable(ctx: AppContext, caller: AuthUser, id: number): GeneratorRow {
  return reachableJob(caller, load(ctx, id), NOT_FOUND);
}

function withAccount(ctx: AppContext, row: GeneratorRow) {
  const account = row.whatsappId === null ? undefined : ctx.db.select().from(whatsapps).where(eq(whatsapps.id, row.whatsappId)).get();
  return generatorView(row, account);
}

/** The range in international digits; start ≤ end; at most MAX_JOB_NUMBERS numbers. */
function parseRange(input: Pick<GeneratorInput, 'start_number' | 'end_number'>): { start: string; end: string; total: number } {
  const errors: Record<string, string> = {};
  const read = (field: 'start_number' | 'end_number', label: string): string | null => {
    const r = normalizePhone(input[field]);
    if (r.ok && /^[1-9]/.test(r.number)) return r.number;
    errors[field] = `${label}: ${r.ok ? 'nomor tidak valid' : r.message}`;
    return null;
  };
  const start = read('start_number', 'Target Nomor Awal');
  const end = read('end_number', 'Target Nomor Akhir');
  if (!start || !end) throw new HttpError(422, Object.values(errors)[0]!, { errors });
  const size = BigInt(end) - BigInt(start) + 1n;
  if (size < 1n) throw new HttpError(422, RANGE_ORDER_MESSAGE, { errors: { start_number: RANGE_ORDER_MESSAGE } });
  if (size > BigInt(MAX_JOB_NUMBERS)) {
    const msg = `Range paling banyak ${MAX_JOB_NUMBERS.toLocaleString('id-ID')} nomor per generator`;
    throw new HttpError(422, msg, { errors: { end_number: msg } });
  }
  return { start, end, total: Number(size) };
}

export function listGenerators(
  ctx: AppContext,
  caller: AuthUser,
  input: { page: number; userId: number | null; search: string; status: StatusFilterValue },
) {
  const scope = jobScope(caller, input.userId);
  const pattern = input.search ? likePattern(input.search) : null;
  const where = and(
    scope === null ? undefined : eq(generators.userId, scope),
    statusCondition(input.status, generators.status, generators.state),
    pattern
      ? or(
          sql`${generators.startNumber} LIKE ${pattern} ESCAPE '\\'`,
          sql`${generators.endNumber} LIKE ${pattern} ESCAPE '\\'`,
          sql`${generators.currentNumber} LIKE ${pattern} ESCAPE '\\'`,
          sql`${whatsapps.pushname} LIKE ${pattern} ESCAPE '\\'`,
          sql`${whatsapps.phonenumber} LIKE ${pattern} ESCAPE '\\'`,
          sql`${whatsapps.clientid} LIKE ${pattern} ESCAPE '\\'`,
        )
      : undefined,
  );
  const joined = eq(generators.whatsappId, whatsapps.id);
  const total = ctx.db.select({ n: count() }).from(generators).leftJoin(whatsapps, joined).where(where).get()?.n ?? 0;
  const { limit, offset } = pageWindow(input.page);
  const rows = ctx.db
    .select({ job: generators, account: whatsapps })
    .from(generators)
    .leftJoin(whatsapps, joined)
    .where(where)
    .orderBy(desc(generators.id))
    .limit(limit)
    .offset(offset)
    .all();
  return paged(rows.map((r) => generatorView(r.job, r.account)), total, input.page);
}

export function getGenerator(ctx: AppContext, caller: AuthUser, id: number) {
  return { generator: withAccount(ctx, reachable(ctx, caller, id)) };
}

export function createGenerator(ctx: AppContext, caller: AuthUser, input: GeneratorInput) {
  const range = parseRange(input);
  checkIntervals(input.interval_min, input.interval_max);
  const account = accountForJob(ctx, caller, input.whatsapp_id);
  const row = ctx.db
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
    .returning()
    .get();
  return { generator: generatorView(row, account), msg: 'Generator berhasil dibuat' };
}

/** Edits intervals, account and b_insert at any time; the range only before the first number is checked. */
export function updateGenerator(ctx: AppContext, caller: AuthUser, id: number, input: GeneratorInput) {
  const row = reachable(ctx, caller, id);
  const range = parseRange(input);
  checkIntervals(input.interval_min, input.interval_max);
  const rangeChanged = range.start !== row.startNumber || range.end !== row.endNumber;
  if (rangeChanged && (row.checked > 0 || row.status === 'sending')) {
    throw new HttpError(409, 'Range nomor tidak dapat diubah setelah generator berjalan');
  }
  const account = input.whatsapp_id === row.whatsappId ? undefined : accountForJob(ctx, caller, input.whatsapp_id);
  const updated = ctx.db
    .update(generators)
    .set({
      whatsappId: account ? account.id : row.whatsappId,
      bInsert: input.b_insert,
      intervalMin: input.interval_min,
      intervalMax: input.interval_max,
      ...(rangeChanged ? { startNumber: range.start, endNumber: range.end, total: range.total, currentNumber: null, state: null } : {}),
    })
    .where(eq(generators.id, row.id))
    .returning()
    .get();
  return { generator: withAccount(ctx, updated), msg: 'Generator berhasil diperbarui' };
}

/** Delete stops the job (its loop finds the row gone) and removes its results with it. */
export function deleteGenerator(ctx: AppContext, caller: AuthUser, id: number) {
  const row = reachable(ctx, caller, id);
  ctx.db.delete(generators).where(eq(generators.id, row.id)).run();
  forgetJob(ctx, generatorJob, row.id);
  return { msg: 'Generator berhasil dihapus' };
}

export function startGenerator(ctx: AppContext, caller: AuthUser, id: number) {
  const row = startJob(ctx, caller, generatorJob, reachable(ctx, caller, id), 'Generator sudah selesai');
  return { generator: withAccount(ctx, row), msg: 'Generator dimulai' };
}

/** Stop pauses after the number being checked; Start resumes from the next one. */
export function stopGenerator(ctx: AppContext, caller: AuthUser, id: number) {
  const row = stopJob(ctx, caller, generatorJob, reachable(ctx, caller, id));
  return { generator: withAccount(ctx, row), msg: 'Generator dihentikan' };
}

/** The registered numbers found, in the order they were found. */
export function generatorResultRows(ctx: AppContext, caller: AuthUser, id: number) {
  const row = reachable(ctx, caller, id);
  const list = ctx.db
    .select({ number: generatorResults.number, name: generatorResults.name })
    .from(generatorResults)
    .where(eq(generatorResults.generatorId, row.id))
    .orderBy(asc(generatorResults.id))
    .all();
  return { list };
}
