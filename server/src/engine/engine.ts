import type { AppContext } from '../context';
import type { Gateway, GatewayEvent } from '../gateway/types';
import { publishBalance } from '../money/events';
import { activeSentAfter, phoneListFigures } from '../phonenumbers/counters';
import { ensureSessionOf, startWhatsappEvents } from '../whatsapp/events';
import { COALESCE_MS, LiveRows } from './live';
import { DeliveryReports, TodayOutcomes } from '../messagelog/outcomes';
import { BlastLoop } from './loop';
import { engineStore, type EngineStore, type RawAccount } from './store';
import { Ticker } from './tick';
import { DEFAULT_RETRY_WAIT, type RetryWait } from './retry';
import { accountData, receiverData } from './view';
import { leaseKeeper, leaseKey, type LeaseKeeper } from '../cluster/keeper';
import { unleasedSendingAccounts } from '../cluster/leases';
import { TierGuard } from './tier';
import { and, eq, inArray } from 'drizzle-orm';
import { whatsapps } from '../db/schema';
import { cooldownCutoff, readSnapshot } from './snapshot';
import { clockIn, isOpenIn, nextOpening, windowOf, zoneOfNumber } from './window';

/** Sending accounts read per page when a start resumes them. */
const RECOVER_BATCH = 200;
/** Accounts one sweep takes over at most (each is a lease round trip); more wait for the next sweep, run at once. */
const SWEEP_ADOPT_MAX = 500;

/** The waits of the retry policy (engine/retry.ts), and the longest wait of a blast waiting for its send window before it looks again (a window or its numbers may change). */
export type EngineOptions = RetryWait & { windowPollMs: number };

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
  readonly store: EngineStore;
  readonly ticker: Ticker;
  readonly live: LiveRows;
  /** Today's sent / delivered / read / failed of the accounts, told live (`outcomes` events). */
  readonly outcomes: TodayOutcomes;
  /** The simulator's delivery reports, applied in batches. */
  readonly reports: DeliveryReports;
  readonly gateway: Gateway;
  /** This node's leases: on PostgreSQL an account's loop runs on the one node holding its lease. */
  readonly leases: LeaseKeeper;
  /** Cloud API numbers: Meta's daily limit of different recipients (messaging tier). */
  readonly tiers: TierGuard;
  readonly options: EngineOptions = { ...DEFAULT_RETRY_WAIT, windowPollMs: 60_000 };
  /** Resolves once the gateway listeners are attached and the start-up recovery has run. */
  ready: Promise<void> = Promise.resolve();
  private readonly loops = new Map<number, BlastLoop>();
  private readonly byDevice = new Map<string, BlastLoop>();
  private progressCache = { at: 0, value: 0 };
  private progressReading: Promise<number> | null = null;
  private balanceDirty = new Set<number>();
  private balanceTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private inboundHandlers: Array<(event: Extract<GatewayEvent, { type: 'message' }>) => void> = [];

  constructor(private readonly ctx: AppContext) {
    this.store = engineStore(ctx.db);
    this.ticker = new Ticker(this.store, Math.random, this.options);
    this.outcomes = new TodayOutcomes(ctx);
    this.reports = new DeliveryReports(ctx, this.outcomes, this.ticker);
    this.live = new LiveRows(ctx.realtime, COALESCE_MS, (accountId, userId) => this.outcomes.touch(accountId, userId));
    this.gateway = ctx.gateway;
    this.leases = leaseKeeper(ctx);
    this.tiers = new TierGuard(ctx.db);
  }

  /** The engine's clock: claims, records and the send window read it; tests set a fake one. */
  now(): number {
    return this.ticker.now();
  }

  setClock(clock: () => number): void {
    this.ticker.now = clock;
  }

  /**
   * Nothing to claim: when numbers are left that only the send window keeps back, when the window next
   * opens for one of them (ms) and that time in the install's zone ('HH:MM', shown to members, who keep
   * no zone of their own); null when nothing is left at all.
   */
  windowOpening(): Promise<{ at: number; clock: string } | null> {
    // Shared by every loop waiting in the same 5 s, so many waiting accounts cost one look.
    const now = this.now();
    const key = Math.floor(now / 5000);
    if (this.windowLook?.key !== key) {
      const answer = this.lookForWindow();
      this.windowLook = { key, answer };
      // "Open now" means another account's claim took the last open number a moment ago: not kept, so the
      // next look sees the numbers as they are by then (as does a failed look).
      const forget = () => {
        if (this.windowLook?.answer === answer) this.windowLook = null;
      };
      answer.then((a) => (a && a.at <= now ? forget() : undefined), forget);
    }
    return this.windowLook.answer;
  }

  private windowLook: { key: number; answer: Promise<{ at: number; clock: string } | null> } | null = null;

  /**
   * The opening a sending blast waits for now ('HH:MM', as `window_wait` tells it), or null when a
   * number is inside the window or nothing is left. The numbers are one pool, so every sending
   * account waits for the same opening, and any node answers alike from the database.
   */
  async windowWaitNow(): Promise<string | null> {
    // Looked up apart from the loops' shared look: a list read just before the last numbers went must
    // not keep a loop waiting on that answer. Lists loaded in the same 5 s share one look.
    const key = Math.floor(this.now() / 5000);
    if (this.listLook?.key !== key) this.listLook = { key, answer: this.lookForWindow() };
    const opening = await this.listLook.answer;
    return opening && opening.at > this.now() ? opening.clock : null;
  }

  private listLook: { key: number; answer: Promise<{ at: number; clock: string } | null> } | null = null;

  private async lookForWindow(): Promise<{ at: number; clock: string } | null> {
    const now = this.now();
    const snap = await readSnapshot(this.store);
    const window = windowOf(snap.settings);
    const prefixes = await this.store.waitingPrefixes(cooldownCutoff(snap, now));
    if (prefixes.length === 0) return null;
    const zones = prefixes.map((p) => zoneOfNumber(p, window.zone));
    // A country inside the window has numbers left (another account's claim took the last one just now): look again soon.
    const at = zones.some((z) => isOpenIn(window, z, now)) ? now : nextOpening(window, zones, now);
    return at === null ? null : { at, clock: clockIn(window.zone, at) };
  }

  log(msg: string, err?: unknown): void {
    this.ctx.log(msg, err);
  }

  /** Listens to the gateway: a revoke or a dropped connection stops the account's loop; replies may opt out. */
  async attach(onInbound: (event: Extract<GatewayEvent, { type: 'message' }>) => void): Promise<void> {
    this.inboundHandlers.push(onInbound);
    if (this.unsubscribe) return;
    this.unsubscribe = () => undefined;
    // The saved sessions are re-opened in the background; recover() re-opens those of sending accounts first.
    void startWhatsappEvents(this.ctx);
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
        case 'status':
          this.reports.add(event);
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
    return Array.from(this.loops, ([, loop]) => loop.snapshot());
  }

  /**
   * Starts (or keeps) the account's loop; never two loops for one account. With several nodes the
   * loop runs where the account's lease is: when another node holds it, the row turns 'sending' and
   * that node's loop (or the node that takes the lease over) does the sending.
   */
  async start(account: RawAccount, once = false): Promise<RawAccount> {
    const existing = this.loops.get(account.id);
    if (existing?.resume()) return (await this.store.account(account.id)) ?? account;
    if (existing) await existing.done;
    if (this.loops.has(account.id)) return (await this.store.account(account.id)) ?? account;
    const row = (await this.setStatus(account.id, 'sending')) ?? account;
    // Another start of the same account may have begun its loop while the status was written.
    if (this.loops.has(account.id)) return (await this.store.account(account.id)) ?? row;
    if (!(await this.leases.take('account', account.id)) || this.loops.has(account.id)) {
      this.live.account(row.id, row.user_id, 'sending', accountData(row, { progressing: true }));
      return row;
    }
    this.launch(row, once);
    return row;
  }

  /** A new loop for an account whose row says 'sending' and whose lease this node holds. */
  private launch(row: RawAccount, once = false): void {
    const loop = new BlastLoop(this, row.id, row.user_id, row.device_id, once);
    this.loops.set(row.id, loop);
    this.byDevice.set(row.device_id, loop);
    this.live.account(row.id, row.user_id, 'sending', accountData(row, { progressing: true }));
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
      const row = await this.setStatus(account.id, 'idle');
      if (row) this.live.account(row.id, row.user_id, 'stop', accountData(row, { waiting: false, progressing: false, attempting: false }));
    }
    return (await this.store.account(account.id)) ?? account;
  }

  /** Called by a loop as it ends. */
  forget(loop: BlastLoop): void {
    if (this.loops.get(loop.accountId) === loop) this.loops.delete(loop.accountId);
    if (this.byDevice.get(loop.deviceId) === loop) this.byDevice.delete(loop.deviceId);
  }

  async setStatus(accountId: number, status: 'idle' | 'sending'): Promise<RawAccount | undefined> {
    if (!this.store.isOpen()) return undefined;
    return this.store.setStatus(accountId, status, Date.now());
  }

  isOptedOut(number: string): Promise<boolean> {
    return this.store.isOptedOut(number);
  }

  /** progress() while its cached value is fresh, without a promise (the loops ask twice per message); else null. */
  progressNow(): number | null {
    return Date.now() - this.progressCache.at < 5000 ? this.progressCache.value : null;
  }

  /** Share of active numbers reached within the cooldown window, in percent (2 decimals); cached 5 s. */
  async progress(): Promise<number> {
    const cached = this.progressNow();
    if (cached !== null) return cached;
    // Every loop asks as its cache runs out: one reading serves them all.
    this.progressReading ??= this.readProgress().finally(() => {
      this.progressReading = null;
    });
    return this.progressReading;
  }

  private async readProgress(): Promise<number> {
    const now = Date.now();
    const { active, reached } = await this.reach(now);
    const value = active ? Math.round((reached / active) * 10_000) / 100 : 100;
    this.progressCache = { at: now, value };
    return value;
  }

  /** Active numbers, and those of them sent within the recipient cooldown (maintained counters: no count(*) over the list). */
  private async reach(now: number): Promise<{ active: number; reached: number }> {
    const hours = (await this.store.rules()).settings?.recipient_cooldown_hours ?? 24;
    const { active } = await phoneListFigures(this.ctx.db);
    return { active, reached: await activeSentAfter(this.ctx.db, now - hours * 3_600_000) };
  }

  /**
   * Whether some active number is outside the recipient cooldown right now. A blast started without
   * one would end at once with nothing sent; numbers claimed by another account still count here, so
   * such a run can still end that way.
   */
  async hasTargets(): Promise<boolean> {
    const { active, reached } = await this.reach(Date.now());
    return active > reached;
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
      if (!this.store.isOpen()) return;
      void (async () => {
        // Connected on any node: with several nodes the member may watch through another one.
        const online = await this.ctx.realtime.connectedUserIds();
        if (!this.store.isOpen()) return;
        for (const id of dirty) if (online.has(id)) await publishBalance(this.ctx, id);
      })().catch((err: unknown) => this.log('Publishing a balance failed', err));
    }, 1000);
    this.balanceTimer.unref();
  }

  /**
   * Start-up after a stop or a crash: claims left by a process that died are released (their
   * attempts were never recorded, so nothing is counted twice), and loops that were running resume
   * when their device is connected and the account is not suspended; the others are shown idle.
   */
  async recover(): Promise<{ released: number; resumed: number; idled: number }> {
    if (this.leases.clustered) {
      this.leases.onSweep((held) => this.sweep(held));
      const before = { resumed: this.adopted.resumed, idled: this.adopted.idled, released: this.adopted.released };
      this.recovering = true;
      await this.leases.sweep().finally(() => (this.recovering = false));
      return {
        released: this.adopted.released - before.released,
        resumed: this.adopted.resumed - before.resumed,
        idled: this.adopted.idled - before.idled,
      };
    }
    const released = await this.store.releaseAbandoned(Date.now());
    for (const t of released) this.live.target(t.id, 'in_use', receiverData(t));
    let resumed = 0;
    let idled = 0;
    // Page by id, so a start with many sending accounts never holds them all; each account's session
    // is re-opened here when the background restore has not reached it yet.
    for (let after = 0; ; ) {
      const rows = await this.store.sendingAccounts(after, RECOVER_BATCH);
      for (const row of rows) {
        if (this.loops.has(row.id)) continue;
        ensureSessionOf(this.ctx, row);
        if (!row.suspended && this.gateway.state(row.device_id) === 'connected') {
          this.start(row).catch((err: unknown) => this.log('Resuming a blast failed', err));
          resumed += 1;
        } else {
          const idle = await this.setStatus(row.id, 'idle');
          if (idle) this.live.account(idle.id, idle.user_id, 'idle', accountData(idle, { waiting: false, progressing: false }));
          idled += 1;
        }
      }
      if (rows.length < RECOVER_BATCH) break;
      after = rows[rows.length - 1]!.id;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return { released: released.length, resumed, idled };
  }

  /** What the sweeps of this node have taken over so far (for the start-up line and the monitor). */
  readonly adopted = { released: 0, resumed: 0, idled: 0 };
  private recovering = false;

  /**
   * Every SWEEP_MS on PostgreSQL, after this node renewed its leases: a loop whose lease another node
   * took (this node stalled past the expiry) stops without touching the row; a loop whose row was set
   * idle on another node stops now rather than after its wait; and accounts left 'sending' with no
   * live lease (their node died or shut down) are taken over: the claims their node left are released
   * (counted as messaged now, as at a restart), and the loop resumes here when the device is
   * connected, or the row turns idle.
   */
  private async sweep(held: Set<string>): Promise<void> {
    for (const [id, loop] of this.loops) {
      if (!loop.ending && !held.has(leaseKey('account', id))) {
        this.log(`Account ${id}: its lease is held by another node now; this node stops its loop`);
        loop.requestStop('stop', true);
      }
    }
    // This node's loops whose rows are no longer 'sending' (read by id, in chunks: only this node's accounts).
    const mine = [...this.loops.keys()];
    for (let i = 0; i < mine.length; i += SWEEP_ADOPT_MAX) {
      const chunk = mine.slice(i, i + SWEEP_ADOPT_MAX);
      const still = await this.ctx.db
        .select({ id: whatsapps.id })
        .from(whatsapps)
        .where(and(inArray(whatsapps.id, chunk), eq(whatsapps.status, 'sending')));
      const sendingIds = new Set(still.map((r) => r.id));
      for (const id of chunk) {
        const loop = this.loops.get(id);
        if (loop && !sendingIds.has(id) && !loop.ending) loop.requestStop('stop');
      }
    }
    // Sending accounts no live lease covers, at most SWEEP_ADOPT_MAX per sweep (the database does the
    // anti-join; no sending row is read here); a full batch asks for the next sweep at once.
    const unleased = await unleasedSendingAccounts(this.ctx.db, Date.now(), SWEEP_ADOPT_MAX);
    if (unleased.length === SWEEP_ADOPT_MAX) setTimeout(() => void this.leases.sweep(), 10).unref();
    const candidates = unleased.filter((id) => !this.loops.has(id) && !held.has(leaseKey('account', id)));
    if (candidates.length === 0) return;
    const released = await this.store.releaseAbandoned(Date.now());
    this.adopted.released += released.length;
    for (const t of released) this.live.target(t.id, 'in_use', receiverData(t));
    const before = { resumed: this.adopted.resumed, idled: this.adopted.idled };
    for (const id of candidates) {
      if (this.loops.has(id) || !(await this.leases.take('account', id))) continue;
      const current = await this.store.account(id);
      if (!current || current.status !== 'sending') {
        await this.leases.give('account', id);
        continue;
      }
      // With the simulator each node holds the sessions it restored; an account linked on another
      // node since this one started is re-opened here from its saved credentials.
      ensureSessionOf(this.ctx, current);
      if (!current.suspended && this.gateway.state(current.device_id) === 'connected') {
        this.launch(current);
        this.adopted.resumed += 1;
      } else {
        const idle = await this.setStatus(current.id, 'idle');
        if (idle) this.live.account(idle.id, idle.user_id, 'idle', accountData(idle, { waiting: false, progressing: false }));
        await this.leases.give('account', id);
        this.adopted.idled += 1;
      }
    }
    // The operator's record of work moving between nodes (the start-up line reports the first sweep).
    const resumed = this.adopted.resumed - before.resumed;
    const idled = this.adopted.idled - before.idled;
    if (!this.recovering && resumed + idled + released.length > 0) {
      this.ctx.log(`Took over ${resumed + idled} sending account(s) that no node held: ${resumed} resumed here, ${idled} set idle, ${released.length} claim(s) released`, undefined, {
        node: this.leases.node,
        resumed,
        idled,
        released: released.length,
      });
    }
  }

  /**
   * Graceful stop of the process: every loop ends after its send in flight is recorded, and the
   * rows stay 'sending' so the next start resumes them.
   */
  async shutdown(): Promise<void> {
    const loops = Array.from(this.loops, ([, loop]) => loop);
    for (const loop of loops) loop.requestStop('stop', true);
    await Promise.all(loops.map((l) => l.done));
    // Other nodes resume these accounts at their next sweep instead of after the leases expire.
    await this.leases.stop(true).catch((err: unknown) => this.log('Giving back leases failed', err));
    if (this.balanceTimer) clearTimeout(this.balanceTimer);
    this.balanceTimer = null;
    this.balanceDirty.clear();
    this.live.close();
    await this.reports.flush().catch((err: unknown) => this.log('Applying delivery reports failed', err));
    this.reports.close();
    await this.outcomes.flush().catch((err: unknown) => this.log('Telling the accounts of today failed', err));
    this.outcomes.close();
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}
