import type { AppContext } from '../context';
import { applyReports, type DeliveryReport } from '../webhooks/statuses';
import { accountsToday, NO_SENDS } from './service';

/** Accounts whose figures changed are told together, at most once per this window. */
export const OUTCOMES_WINDOW_MS = 500;
/** A delivery report that overtook its send's log row is tried again this often, this many times. */
const REPORT_RETRY_MS = 500;
const REPORT_TRIES = 20;

/**
 * Today's sent / delivered / read / failed of an account row, live: an `outcomes` event with the row's
 * absolute figures of the day (whatsapp_days), on the owner's channel and 'admin'. A send, a status or a
 * report only marks the account; one read of the marked accounts' rows (by primary key) every
 * OUTCOMES_WINDOW_MS follows, after the commits and outside the engine's tick.
 */
export class TodayOutcomes {
  private dirty = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  closed = false;

  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'realtime' | 'log'>,
    private readonly windowMs = OUTCOMES_WINDOW_MS,
  ) {}

  /** The account's figures of today may have changed. */
  touch(accountId: number, userId: number): void {
    if (this.closed) return;
    this.dirty.set(accountId, userId);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch((err: unknown) => this.ctx.log('Telling the accounts of today failed', err));
    }, this.windowMs);
    this.timer.unref();
  }

  async flush(): Promise<void> {
    if (!this.dirty.size) return;
    const batch = this.dirty;
    this.dirty = new Map();
    const figures = await accountsToday(this.ctx, [...batch.keys()]);
    const at = Date.now();
    for (const [id, userId] of batch) {
      this.ctx.realtime.toUserAndAdmin(userId, 'outcomes', { id, user_id: userId, sender: { id, user_id: userId }, today: figures.get(id) ?? NO_SENDS }, at);
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** How long the first delivery report of a batch waits for others before the batch is applied. */
export const REPORTS_WINDOW_MS = 20;
/** Most reports applied at once; a batch this full is applied without waiting. */
export const REPORTS_BATCH = 500;

/** What the delivery reports need of the engine's ticker (engine/tick.ts). */
export interface ReportEngine {
  /** Resolves once the records asked for before the call are committed. */
  recordsSettled(): Promise<void>;
  /** Runs the batch between two ticks, so a batch and a tick never wait on each other's row locks. */
  betweenTicks<T>(fn: () => Promise<T>): Promise<T>;
}
const NO_ENGINE: ReportEngine = { recordsSettled: () => Promise.resolve(), betweenTicks: (fn) => fn() };

/**
 * The simulator's delivery reports of sent messages: each moves its log row (never money) and marks the
 * account. Reports are applied in batches (`applyReports`: a fixed number of statements per batch) — those
 * that came within REPORTS_WINDOW_MS of the first, at most REPORTS_BATCH — one batch at a time. A batch
 * waits for the engine's records asked for before it (`recordsSettled`): a report on the simulator comes
 * as soon as its send is answered, before the tick that records the send has committed. It is applied
 * between two ticks of the node (`betweenTicks`): a batch and a tick write the same day counters. A report whose
 * row is still not there (another node's, or a send not recorded yet) is tried again after `retryMs`, at
 * most REPORT_TRIES times in all.
 */
export class DeliveryReports {
  private pending = new Map<string, { report: DeliveryReport; tries: number }>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private retries = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'log'>,
    private readonly outcomes: TodayOutcomes,
    private readonly engine: ReportEngine = NO_ENGINE,
    private readonly windowMs = REPORTS_WINDOW_MS,
    private readonly retryMs = REPORT_RETRY_MS,
  ) {}

  /** A report to apply; a later report of the same message waiting with it keeps the furthest status. */
  add(report: DeliveryReport, tries = 0): void {
    if (this.closed) return;
    const waiting = this.pending.get(report.messageId);
    if (waiting && waiting.report.status === 'read' && report.status !== 'read') return;
    this.pending.set(report.messageId, { report, tries: waiting ? Math.min(waiting.tries, tries) : tries });
    this.schedule();
  }

  /** Applies what is waiting now, and what comes in meanwhile, until nothing waits. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running) await this.running;
    if (!this.pending.size) return;
    this.running = this.applyBatch().finally(() => {
      this.running = null;
      if (this.pending.size) this.schedule();
    });
    await this.running;
  }

  /** Waiting reports are dropped; a batch being applied finishes. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const t of this.retries) clearTimeout(t);
    this.retries.clear();
    this.pending.clear();
  }

  private schedule(): void {
    if (this.running || this.closed) return;
    if (this.pending.size >= REPORTS_BATCH) {
      void this.flush().catch((err: unknown) => this.ctx.log('Applying delivery reports failed', err));
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch((err: unknown) => this.ctx.log('Applying delivery reports failed', err));
    }, this.windowMs);
    this.timer.unref();
  }

  private async applyBatch(): Promise<void> {
    await this.engine.recordsSettled();
    const batch: { report: DeliveryReport; tries: number }[] = [];
    for (const [id, item] of this.pending) {
      if (batch.length >= REPORTS_BATCH) break;
      batch.push(item);
      this.pending.delete(id);
    }
    const results = await this.engine.betweenTicks(() => applyReports(this.ctx.db, batch.map((b) => b.report)));
    for (const { report, tries } of batch) {
      const result = results.get(report.messageId);
      if (result && result !== 'unknown') this.outcomes.touch(result.accountId, result.userId);
      if (result !== 'unknown' || tries + 1 >= REPORT_TRIES || this.closed) continue;
      const retry = setTimeout(() => {
        this.retries.delete(retry);
        this.add(report, tries + 1);
      }, this.retryMs);
      retry.unref();
      this.retries.add(retry);
    }
  }
}
