import type { AppContext } from '../context';
import type { Gateway, GatewayEvent } from '../gateway/types';
import { publishBalance } from '../money/events';
import { activeSentAfterSync, phoneListFiguresSync } from '../db/sqlite/phonenumbers';
import { startWhatsappEvents } from '../whatsapp/events';
import { LiveRows } from './live';
import { BlastLoop } from './loop';
import { EngineStatements, type RawAccount } from './statements';
import { Ticker } from './tick';
import { accountData, receiverData } from './view';

export interface EngineOptions {
  /** Retries of a send that failed for a network reason, before it counts as a failure. */
  maxRetries: number;
  retryDelayMs: number;
}

const engines = new WeakMap<AppContext, BlastEngine>();

/** The blast engine of an app (one per AppContext, created on first use). */
export function engineFor(ctx: AppContext): BlastEngine {
  let engine = engines.get(ctx);
  if (!engine) {
    engine = new BlastEngine(ctx);
    engines.set(ctx, engine);
  }
  return engine;
}

/**
 * Runs the blast loops of all accounts. Loops share one Ticker, so the database work of many
 * accounts commits in one transaction per turn of the event loop.
 */
export class BlastEngine {
  readonly statements: EngineStatements;
  readonly ticker: Ticker;
  readonly live: LiveRows;
  readonly gateway: Gateway;
  readonly options: EngineOptions = { maxRetries: 3, retryDelayMs: 1000 };
  private readonly loops = new Map<number, BlastLoop>();
  private readonly byDevice = new Map<string, BlastLoop>();
  private progressCache = { at: 0, value: 0 };
  private balanceDirty = new Set<number>();
  private balanceTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private inboundHandlers: Array<(event: Extract<GatewayEvent, { type: 'message' }>) => void> = [];

  constructor(private readonly ctx: AppContext) {
    this.statements = new EngineStatements(ctx.db);
    this.ticker = new Ticker(this.statements);
    this.live = new LiveRows(ctx.realtime);
    this.gateway = ctx.gateway;
  }

  log(msg: string, err?: unknown): void {
    this.ctx.log(msg, err);
  }

  /** Listens to the gateway: a revoke or a dropped connection stops the account's loop; replies may opt out. */
  attach(onInbound: (event: Extract<GatewayEvent, { type: 'message' }>) => void): void {
    this.inboundHandlers.push(onInbound);
    if (this.unsubscribe) return;
    startWhatsappEvents(this.ctx);
    this.unsubscribe = this.gateway.on((event) => {
      switch (event.type) {
        case 'revoke':
          // The accounts area suspends the row; the loop stops after its send in flight.
          this.byDevice.get(event.deviceId)?.requestStop('idle');
          return;
        case 'connection.update':
          if (event.state !== 'connected') this.byDevice.get(event.deviceId)?.requestStop('idle');
          return;
        case 'disconnected':
          this.byDevice.get(event.deviceId)?.requestStop('idle');
          return;
        case 'message':
          for (const h of this.inboundHandlers) h(event);
          return;
        default:
          return;
      }
    });
  }

  loopOf(accountId: number): BlastLoop | undefined {
    return this.loops.get(accountId);
  }

  get running(): number {
    return this.loops.size;
  }

  /** Every loop of this process, for the developer monitor. */
  describeLoops() {
    return [...this.loops.values()].map((loop) => loop.snapshot());
  }

  /** Starts (or keeps) the account's loop; never two loops for one account. */
  async start(account: RawAccount, once = false): Promise<RawAccount> {
    const existing = this.loops.get(account.id);
    if (existing?.resume()) return this.statements.account.get(account.id) ?? account;
    if (existing) await existing.done;
    if (this.loops.has(account.id)) return this.statements.account.get(account.id) ?? account;
    const row = this.setStatus(account.id, 'sending') ?? account;
    const loop = new BlastLoop(this, account.id, account.user_id, account.device_id, once);
    this.loops.set(account.id, loop);
    this.byDevice.set(account.device_id, loop);
    this.live.account(row.id, row.user_id, 'sending', accountData(row, { progressing: true }));
    return row;
  }

  /** Stops after the send in flight; resolves once the loop has ended (or after `waitMs`). */
  async stop(account: RawAccount, waitMs = 15_000): Promise<RawAccount> {
    const loop = this.loops.get(account.id);
    if (loop) {
      loop.requestStop('stop');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([loop.done, new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
      clearTimeout(timer);
    } else if (account.status !== 'idle') {
      const row = this.setStatus(account.id, 'idle');
      if (row) this.live.account(row.id, row.user_id, 'stop', accountData(row, { waiting: false, progressing: false, attempting: false }));
    }
    return this.statements.account.get(account.id) ?? account;
  }

  /** Called by a loop as it ends. */
  forget(loop: BlastLoop): void {
    if (this.loops.get(loop.accountId) === loop) this.loops.delete(loop.accountId);
    if (this.byDevice.get(loop.deviceId) === loop) this.byDevice.delete(loop.deviceId);
  }

  setStatus(accountId: number, status: 'idle' | 'sending'): RawAccount | undefined {
    if (!this.statements.sqlite.open) return undefined;
    return this.statements.setStatus.get({ id: accountId, status, now: Date.now() });
  }

  isOptedOut(number: string): boolean {
    return (this.statements.optedOut.get(number)?.n ?? 0) > 0;
  }

  /** Share of active numbers reached within the cooldown window, in percent (2 decimals); cached 5 s. */
  progress(): number {
    const now = Date.now();
    if (now - this.progressCache.at < 5000) return this.progressCache.value;
    const st = this.statements;
    const hours = st.settings.get()?.recipient_cooldown_hours ?? 24;
    // Maintained counters: no count(*) over the phone list on this timer.
    const { active } = phoneListFiguresSync(this.ctx.db);
    const reached = activeSentAfterSync(this.ctx.db, now - hours * 3_600_000);
    const value = active ? Math.round((reached / active) * 10_000) / 100 : 100;
    this.progressCache = { at: now, value };
    return value;
  }

  /**
   * A member's balance changed (blast income, or a referral credit for a referrer): the new figures
   * go out at most once a second per user, and only to users with a socket open right now.
   */
  balanceChanged(userId: number): void {
    this.balanceDirty.add(userId);
    if (this.balanceTimer) return;
    this.balanceTimer = setTimeout(() => {
      this.balanceTimer = null;
      const dirty = [...this.balanceDirty];
      this.balanceDirty.clear();
      if (!this.statements.sqlite.open) return;
      const online = this.ctx.realtime.connectedUserIds();
      for (const id of dirty) if (online.has(id)) publishBalance(this.ctx, id);
    }, 1000);
    this.balanceTimer.unref();
  }

  /**
   * Start-up after a stop or a crash: claims left by a process that died are released (their
   * attempts were never recorded, so nothing is counted twice), and loops that were running resume
   * when their device is connected and the account is not suspended; the others are shown idle.
   */
  recover(): { released: number; resumed: number; idled: number } {
    const st = this.statements;
    const released = this.ctx.db.transaction(() => st.releaseAll.all({ now: Date.now() }));
    for (const t of released) this.live.target(t.id, 'in_use', receiverData(t));
    let resumed = 0;
    let idled = 0;
    for (const row of st.sendingAccounts.all()) {
      if (this.loops.has(row.id)) continue;
      if (!row.suspended && this.gateway.state(row.device_id) === 'connected') {
        void this.start(row);
        resumed += 1;
      } else {
        const idle = this.setStatus(row.id, 'idle');
        if (idle) this.live.account(idle.id, idle.user_id, 'idle', accountData(idle, { waiting: false, progressing: false }));
        idled += 1;
      }
    }
    return { released: released.length, resumed, idled };
  }

  /**
   * Graceful stop of the process: every loop ends after its send in flight is recorded, and the
   * rows stay 'sending' so the next start resumes them.
   */
  async shutdown(): Promise<void> {
    const loops = [...this.loops.values()];
    for (const loop of loops) loop.requestStop('stop', true);
    await Promise.all(loops.map((l) => l.done));
    if (this.balanceTimer) clearTimeout(this.balanceTimer);
    this.balanceTimer = null;
    this.balanceDirty.clear();
    this.live.close();
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}
