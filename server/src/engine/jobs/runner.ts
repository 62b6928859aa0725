import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { whatsapps } from '../../db/schema';
import { one } from '../../db/raw';
import { isStoreOpen } from '../../db/stores';
import { accountCanRunJobs, DISCONNECTED_MESSAGE } from '../../../../common/jobs';
import { scheduleIndexing } from '../../phonenumbers/search';
import { EventCoalescer } from './coalesce';
import { randomWholeSeconds, Sleeper, yieldToEventLoop } from './timing';
import type { CheckOutcome, JobKind, JobRecord } from './types';
import { INVALID_NUMBER } from '../../../../common/phone';
import { leaseKeeper, leaseKey } from '../../cluster/keeper';
import { ensureSessionOfRow } from '../../whatsapp/events';

/** A failed check (timeout, rate limit…) is asked again this many times before it counts as Gagal. */
export const CHECK_RETRIES = 3;
/** Pause before retry n is n × this. */
export const RETRY_WAIT_MS = 1000;

const FAILED_MESSAGE = 'Terjadi kesalahan, silahkan coba lagi';

interface Loop {
  sleeper: Sleeper;
  /** Its lease is taken (always at once on SQLite). */
  leased: boolean;
  /** Started by a lease sweep after start-up: when its lease is won, the job is taken over from a node that stopped. */
  adopted?: boolean;
}

type Checked = CheckOutcome | 'disconnected' | 'interrupted';

type AnyKind = JobKind<JobRecord>;

/**
 * Runs generator and validator jobs: one loop per running job that checks the next number through
 * the job's account, records it in one transaction, tells the lists, and waits the job's interval.
 *
 * The database is the source of truth: a loop re-reads its row every iteration, so Stop (status
 * idle), Delete (row gone) and edits take effect at the next step, and a restart resumes every job
 * whose status is still sending from its `checked` position. A check whose result was not committed
 * before a crash is simply asked again; a committed one is never asked again.
 */
export class JobRunner {
  private readonly loops = new Map<string, Loop>();
  private halted = false;
  private sweeping = false;
  readonly events = new EventCoalescer();

  constructor(
    private readonly ctx: AppContext,
    private readonly kinds: AnyKind[],
  ) {}

  private key(kind: AnyKind, id: number): string {
    return leaseKey(kind.type, id);
  }

  /** Whether loops must stop touching the database (shutdown, or the database was closed). */
  private gone(): boolean {
    return this.halted || !isStoreOpen(this.ctx.db);
  }

  /** Sends a row event to its owner and to admin/dev; coalescible events may be merged per row. */
  emit(kind: AnyKind, row: JobRecord, event: string, extra: Record<string, unknown> = {}, coalescible = false): void {
    const data = { ...kind.eventData(row), ...extra };
    const send = () => this.ctx.realtime.toUserAndAdmin(row.userId, event, data);
    if (coalescible) this.events.soft(this.key(kind, row.id), send);
    else this.events.hard(this.key(kind, row.id), send);
  }

  /** Makes sure a loop runs for a job whose status is sending (a running loop picks the change up itself). */
  ensure(kind: AnyKind, id: number, adopted = false): void {
    if (this.gone()) return;
    const key = this.key(kind, id);
    if (this.loops.has(key)) return;
    const loop: Loop = { sleeper: new Sleeper(), leased: false, adopted };
    this.loops.set(key, loop);
    void this.run(kind, id, loop);
  }

  /** Cuts a job's wait short so it re-reads its row now (after Stop or Delete). */
  wake(kind: AnyKind, id: number): void {
    this.loops.get(this.key(kind, id))?.sleeper.wake();
  }

  isRunning(kind: AnyKind, id: number): boolean {
    return this.loops.has(this.key(kind, id));
  }

  /**
   * Resumes every job left running (status sending) by an earlier process. With several nodes this
   * runs again after every lease renewal: a job whose lease another node holds is left to it, a job
   * nobody holds (its node died) is taken over, and a loop whose lease was lost stops.
   */
  async resume(fromSweep = false): Promise<void> {
    const keeper = leaseKeeper(this.ctx);
    if (keeper.clustered && !this.sweeping) {
      this.sweeping = true;
      keeper.onSweep(async (held) => {
        for (const [key, loop] of this.loops) {
          if (loop.leased && !held.has(key)) {
            this.loops.delete(key);
            loop.sleeper.wake();
          }
        }
        await this.resume(true);
      });
    }
    for (const kind of this.kinds) {
      if (this.gone()) return;
      for (const id of await kind.sendingIds(this.ctx)) this.ensure(kind, id, fromSweep);
    }
  }

  /** Stops every loop without touching the rows, as a shutdown (or crash) would: they resume on the next start. */
  halt(): void {
    this.halted = true;
    for (const [, loop] of this.loops) loop.sleeper.wake();
    this.loops.clear();
    this.events.close();
  }

  private async usableAccount(whatsappId: number | null) {
    if (whatsappId === null) return null;
    const row = await one(this.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)));
    // A job taken over from another node: its account's saved session is re-opened here.
    if (row) ensureSessionOfRow(this.ctx, row);
    return row && accountCanRunJobs(row.state) ? row : null;
  }

  private async check(kind: AnyKind, job: JobRecord, loop: Loop, deviceId: string, number: string): Promise<Checked> {
    for (let attempt = 0; ; attempt++) {
      let answer: Awaited<ReturnType<AppContext['gateway']['checkNumber']>>;
      try {
        answer = await this.ctx.gateway.checkNumber(deviceId, number);
      } catch (err) {
        this.ctx.log(`Checking a number for ${kind.type} ${job.id} failed`, err);
        answer = { ok: false, error: 'failed' };
      }
      if (answer.ok) return answer.registered ? { result: 'registered', pushname: answer.pushname } : { result: 'unregistered' };
      if (answer.error === 'invalid_number') return { result: 'invalid', reason: INVALID_NUMBER };
      if (answer.error === 'not_connected' || answer.error === 'unknown_device') return 'disconnected';
      if (attempt >= CHECK_RETRIES) return { result: 'failed', reason: answer.error };
      if (this.gone()) return 'interrupted';
      this.emit(kind, job, 'attempting', { attempingCode: answer.error, target: number });
      await loop.sleeper.sleep(RETRY_WAIT_MS * (attempt + 1));
      const now = this.gone() ? undefined : await kind.load(this.ctx, job.id);
      if (!now || now.status !== 'sending') return 'interrupted';
    }
  }

  private async run(kind: AnyKind, id: number, loop: Loop): Promise<void> {
    const key = this.key(kind, id);
    const keeper = leaseKeeper(this.ctx);
    try {
      // With several nodes a job runs on the node holding its lease; another node's job is left alone.
      if (!(await keeper.take(kind.type, id))) return;
      loop.leased = true;
      // The operator's record of work moving between nodes.
      if (loop.adopted) this.ctx.log(`Took over ${kind.type} ${id}, which no node held`, undefined, { node: keeper.node, kind: kind.type, id });
      for (;;) {
        if (this.gone() || this.loops.get(key) !== loop) return;
        const job = await kind.load(this.ctx, id);
        if (!job) return;
        if (job.status !== 'sending') {
          this.emit(kind, job, 'idle');
          return;
        }
        const target = job.checked < job.total ? await kind.next(this.ctx, job) : null;
        if (!target) {
          const done = await kind.setRun(this.ctx, id, 'idle', 'finished');
          if (done) this.emit(kind, done, 'finished');
          return;
        }
        let outcome: CheckOutcome;
        if (target.invalid !== undefined) {
          outcome = { result: 'invalid', reason: target.invalid };
        } else {
          const account = await this.usableAccount(job.whatsappId);
          const checked = account ? await this.check(kind, job, loop, account.deviceId, target.number) : 'disconnected';
          if (this.gone() || this.loops.get(key) !== loop) return;
          if (checked === 'interrupted') continue;
          if (checked === 'disconnected') {
            const paused = await kind.setRun(this.ctx, id, 'idle', 'error');
            if (paused) this.emit(kind, paused, kind.errorEvent, { message: DISCONNECTED_MESSAGE });
            return;
          }
          outcome = checked;
        }
        if (!(await kind.commit(this.ctx, job, target, outcome))) continue;
        const after = await kind.load(this.ctx, id);
        if (!after) return;
        this.emit(kind, after, 'progressing', { target: target.number }, true);
        if (after.status === 'sending' && after.checked < after.total && target.invalid === undefined) {
          const seconds = randomWholeSeconds(after.intervalMin, after.intervalMax);
          if (seconds > 0) {
            this.emit(kind, after, 'waiting', { waitTime: seconds });
            await loop.sleeper.sleep(seconds * 1000);
          }
        }
        await yieldToEventLoop();
      }
    } catch (err) {
      if (this.gone()) return;
      this.ctx.log(`${kind.type} ${id} stopped by an error`, err);
      try {
        const row = await kind.setRun(this.ctx, id, 'idle', 'error');
        if (row) this.emit(kind, row, kind.errorEvent, { message: FAILED_MESSAGE });
      } catch (again) {
        this.ctx.log(`${kind.type} ${id} could not be marked as failed`, again);
      }
    } finally {
      const mine = this.loops.get(key) === loop;
      if (mine) this.loops.delete(key);
      if (!this.halted) this.events.flush(key);
      if (mine && loop.leased && !this.gone()) await keeper.give(kind.type, id).catch((err: unknown) => this.ctx.log('Giving back a lease failed', err));
    }
    // Numbers saved to the list become searchable in the background, as after an import.
    if (loop.leased && !this.gone()) {
      try {
        await scheduleIndexing(this.ctx.db, this.ctx.log);
      } catch (err) {
        this.ctx.log('Indexing phone numbers for search failed', err);
      }
    }
  }
}
