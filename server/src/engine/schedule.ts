import { and, asc, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { AppContext } from '../context';
import { blastSchedules } from '../db/schema';
import type { AuthUser } from '../auth/middleware';
import { HttpError } from '../lib/errors';
import { accountById, emitAccount } from '../whatsapp/access';
import type { WhatsappRow } from '../whatsapp/view';
import { startupReleased } from '../whatsapp/events';
import { accountOf, startAccount } from './service';

/** How often a node looks for schedules that are due (one indexed read when none is). */
export const SCHEDULE_POLL_MS = 5_000;
/** A node that claimed a due schedule has this long to start it; after that another node may. */
export const SCHEDULE_LEASE_MS = 60_000;
/** A schedule must lie at least this far ahead, and at most SCHEDULE_MAX_AHEAD_MS. */
export const SCHEDULE_MIN_AHEAD_MS = 60_000;
export const SCHEDULE_MAX_AHEAD_MS = 30 * 24 * 3600_000;
/** Due schedules one look claims. */
const CLAIM_BATCH = 50;

export const SCHEDULE_PAST_MSG = 'Waktu jadwal harus paling cepat 1 menit dari sekarang';
export const SCHEDULE_FAR_MSG = 'Waktu jadwal paling lama 30 hari dari sekarang';
export const SCHEDULE_NONE_MSG = 'Akun ini tidak punya jadwal blast';

/** The schedules of these accounts, by account id (epoch ms). */
export async function schedulesOf(ctx: AppContext, accountIds: number[]): Promise<Map<number, number>> {
  if (!accountIds.length) return new Map();
  const rows = await ctx.db
    .select({ whatsappId: blastSchedules.whatsappId, runAt: blastSchedules.runAt })
    .from(blastSchedules)
    .where(inArray(blastSchedules.whatsappId, accountIds));
  return new Map(rows.map((r) => [r.whatsappId, r.runAt.getTime()]));
}

const scheduledData = (runAt: number | null) => ({ scheduled_at: runAt === null ? null : new Date(runAt).toISOString() });

/** POST schedule-blasting: sets (or moves) the account's scheduled start. */
export async function scheduleBlast(ctx: AppContext, caller: AuthUser, ref: number | string, at: Date, now = Date.now()) {
  const row = await accountOf(ctx, caller, ref);
  const runAt = at.getTime();
  if (runAt < now + SCHEDULE_MIN_AHEAD_MS) throw new HttpError(422, SCHEDULE_PAST_MSG, { code: 'schedule_past', errors: { at: SCHEDULE_PAST_MSG } });
  if (runAt > now + SCHEDULE_MAX_AHEAD_MS) throw new HttpError(422, SCHEDULE_FAR_MSG, { code: 'schedule_far', errors: { at: SCHEDULE_FAR_MSG } });
  await ctx.db
    .insert(blastSchedules)
    .values({ whatsappId: row.id, userId: caller.id, runAt: new Date(runAt) })
    .onConflictDoUpdate({ target: blastSchedules.whatsappId, set: { userId: caller.id, runAt: new Date(runAt), claimedUntil: null } });
  emitAccount(ctx, 'scheduled', row, scheduledData(runAt));
  return { msg: 'Blast dijadwalkan', data: { id: row.id, ...scheduledData(runAt) } };
}

/** POST cancel-schedule: removes the account's scheduled start. */
export async function cancelSchedule(ctx: AppContext, caller: AuthUser, ref: number | string) {
  const row = await accountOf(ctx, caller, ref);
  const removed = await ctx.db.delete(blastSchedules).where(eq(blastSchedules.whatsappId, row.id)).returning({ id: blastSchedules.id });
  if (!removed.length) throw new HttpError(404, SCHEDULE_NONE_MSG, { code: 'schedule_none' });
  emitAccount(ctx, 'scheduled', row, scheduledData(null));
  return { msg: 'Jadwal blast dibatalkan', data: { id: row.id, ...scheduledData(null) } };
}

/**
 * Claims the due schedules no live node holds: one conditional UPDATE, so with several nodes each due row
 * goes to one of them (the second node's update finds the lease already taken and skips the row).
 */
async function claimDue(ctx: AppContext, now: number) {
  const due = and(lte(blastSchedules.runAt, new Date(now)), or(isNull(blastSchedules.claimedUntil), lt(blastSchedules.claimedUntil, new Date(now))));
  const ids = await ctx.db.select({ id: blastSchedules.id }).from(blastSchedules).where(due).orderBy(asc(blastSchedules.runAt)).limit(CLAIM_BATCH);
  if (!ids.length) return [];
  return await ctx.db
    .update(blastSchedules)
    .set({ claimedUntil: new Date(now + SCHEDULE_LEASE_MS) })
    .where(
      and(
        inArray(
          blastSchedules.id,
          ids.map((r) => r.id),
        ),
        due,
      ),
    )
    .returning();
}

type Claimed = Awaited<ReturnType<typeof claimDue>>[number];

/**
 * Starts one claimed schedule as its account's owner would press Start. A start the rules refuse (not
 * connected, suspended, no template, no target) ends the schedule: the account's events carry the reason
 * as a blast the server ended does, and it is not tried again.
 */
async function fire(ctx: AppContext, claimed: Claimed): Promise<void> {
  const row = await accountById(ctx, claimed.whatsappId);
  try {
    if (row) await startAccount(ctx, row, true);
  } catch (err) {
    if (row && err instanceof HttpError) {
      ctx.log(`Scheduled blast of account ${row.id} did not start: ${err.message}`);
      emitAccount(ctx, 'error_blast', (await accountById(ctx, row.id)) ?? row, { message: err.message, code: err.extra?.code, scheduled: true, ...scheduledData(null) });
    } else if (!(err instanceof HttpError)) {
      // A database or gateway fault: the lease runs out and this or another node tries once more.
      ctx.log(`Scheduled blast of account ${claimed.whatsappId} failed`, err);
      return;
    }
  }
  await ctx.db.delete(blastSchedules).where(and(eq(blastSchedules.id, claimed.id), eq(blastSchedules.runAt, claimed.runAt)));
  if (row) {
    const fresh: WhatsappRow = (await accountById(ctx, row.id)) ?? row;
    emitAccount(ctx, 'scheduled', fresh, scheduledData(null));
  }
}

/** The scheduled starts of one process: looks every SCHEDULE_POLL_MS for due ones and starts them. */
export class BlastScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly pollMs = SCHEDULE_POLL_MS,
  ) {}

  /** Starts looking (after the start-up work), at once and then every pollMs. */
  resume(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => void this.runDue().catch((err: unknown) => this.ctx.log('Looking for scheduled blasts failed', err)), this.pollMs);
    this.timer.unref();
    void this.runDue().catch((err: unknown) => this.ctx.log('Looking for scheduled blasts failed', err));
  }

  /** Starts every due schedule this node could claim; answers how many it claimed. One look at a time. */
  async runDue(now = Date.now()): Promise<number> {
    if (this.running) return await this.running;
    const run = (async () => {
      const claimed = await claimDue(this.ctx, now);
      for (const c of claimed) {
        if (this.closed) break;
        await fire(this.ctx, c);
      }
      return claimed.length;
    })();
    this.running = run;
    try {
      return await run;
    } finally {
      this.running = null;
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

const schedulers = new WeakMap<AppContext, BlastScheduler>();

export function schedulerOf(ctx: AppContext): BlastScheduler {
  let s = schedulers.get(ctx);
  if (!s) {
    s = new BlastScheduler(ctx);
    schedulers.set(ctx, s);
  }
  return s;
}

/** At start, once the start-up work may begin: starts looking for due schedules (left by a restart too). */
export function resumeScheduler(ctx: AppContext): void {
  void startupReleased(ctx)
    .then(() => schedulerOf(ctx).resume())
    .catch((err: unknown) => ctx.log('Scheduled blasts could not resume', err));
}

export function closeScheduler(ctx: AppContext): void {
  schedulers.get(ctx)?.close();
}
