import type { SendErrorCode, SendResult } from '../gateway/types';
import type { ClaimedTarget, RawAccount, RawTemplate } from './store';
import type { ClaimAnswer } from './tick';
import { composeMessage } from './templates';
import { isCloudDevice } from '../gateway/cloud/cloud';
import { accountData, receiverData } from './view';
import type { BlastEngine } from './engine';
import { TIER_REACHED } from './tier';
import { isTransient } from './retry';

/**
 * The device is gone (or, on the Cloud API, its token expired): nothing was sent, the claim is
 * released uncounted and the loop goes idle.
 */
const DROPPED = new Set<SendErrorCode>(['not_connected', 'unknown_device', 'token_expired']);

/** A Cloud API account's blast ends with this when no active template maps to an approved one. */
export const NO_MAPPED_TEMPLATE_MSG = 'Template pesan belum terhubung ke template WhatsApp yang disetujui';
export const NO_ACTIVE_TEMPLATE_MSG = 'Tidak ada template pesan yang aktif';
/**
 * Meta refuses the template or the business number itself, so every next send would fail alike: the
 * target is released uncounted and the blast ends with one of these instead of failing the whole list.
 */
export const TEMPLATE_REFUSED_MSG = 'Template WhatsApp ditolak Meta (tidak ada, dijeda, dinonaktifkan, atau parameternya tidak cocok)';
export const ACCOUNT_RESTRICTED_MSG = 'Nomor bisnis ini dibatasi Meta dan tidak dapat mengirim pesan';
const HALTS: Partial<Record<SendErrorCode, string>> = { no_template: TEMPLATE_REFUSED_MSG, account_restricted: ACCOUNT_RESTRICTED_MSG };

/** Why a loop ended, and the event that tells the lists. */
export type EndReason = 'stop' | 'idle' | 'finished' | 'error_blast';

/**
 * One account's blast: claim a target, send, record, wait the interval, again — until stopped,
 * out of targets, or the device drops. Stop takes effect after the send in flight.
 */
export class BlastLoop {
  private stopReason: EndReason | null = null;
  /** Shutdown: leave the row 'sending' so the next start resumes it. */
  private detached = false;
  private wake: (() => void) | null = null;
  /** A target claimed together with the last record (interval 0), used by the next turn. */
  private next: ClaimAnswer | null = null;
  /** The account row that record returned, read in the transaction that claimed `next`. */
  private nextRow: RawAccount | null = null;
  ending = false;
  sending = false;
  /** For the developer monitor: the number being sent to, the last interval and when the wait ends. */
  currentTarget: string | null = null;
  lastInterval: number | null = null;
  waitUntil: number | null = null;
  readonly startedAt = Date.now();
  readonly done: Promise<void>;
  /** A Cloud API account: sends approved templates only. */
  private readonly cloud: boolean;
  /** Why the last send ended the blast (Meta refused the template or the number), when it did. */
  private halted: string | null = null;
  /** This loop's last send, when it failed for a reason that may pass: its code, attempt and number. */
  private lastFailure: { code: SendErrorCode; attempt: number; number: string } | null = null;
  /** Aborted by a stop: the gateway's waits between tries of the send in flight end at once. */
  private sendAbort: AbortController | null = null;

  constructor(
    private readonly engine: BlastEngine,
    readonly accountId: number,
    readonly userId: number,
    readonly deviceId: string,
    private readonly once: boolean,
  ) {
    this.cloud = isCloudDevice(deviceId);
    if (this.cloud) engine.ticker.mappedOnly.add(accountId);
    this.done = this.run()
      .catch((err: unknown) => this.fail(err))
      .finally(() => {
        if (this.cloud && !engine.loopOf(accountId)) {
          engine.ticker.mappedOnly.delete(accountId);
          engine.tiers.forget(accountId);
        }
      });
  }

  get stopping(): boolean {
    return this.stopReason !== null;
  }

  /** Ends the loop after the send in flight; a wait in progress ends at once. */
  requestStop(reason: EndReason = 'stop', detach = false): void {
    if (this.stopReason === null || reason !== 'stop') this.stopReason = reason;
    if (detach) this.detached = true;
    this.sendAbort?.abort();
    this.wake?.();
  }

  /** Start pressed again while stopping: keep going instead of starting a second loop. */
  resume(): boolean {
    if (this.ending || this.detached) return false;
    this.stopReason = null;
    return true;
  }

  /** What the developer monitor shows of this loop. */
  snapshot() {
    const next = this.next?.kind === 'claimed' ? this.next.target.number : null;
    return {
      accountId: this.accountId,
      userId: this.userId,
      deviceId: this.deviceId,
      status: this.stopReason ? 'stopping' : this.sending ? 'sending' : this.waitUntil ? 'waiting' : 'running',
      currentTarget: this.currentTarget,
      queue: next ? [next] : [],
      interval: this.lastInterval,
      waitUntil: this.waitUntil ? new Date(this.waitUntil).toISOString() : null,
      startedAt: new Date(this.startedAt).toISOString(),
    };
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.stopReason) return Promise.resolve();
    this.waitUntil = Date.now() + ms;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        this.waitUntil = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        this.waitUntil = null;
        resolve();
      };
    });
  }

  private emit(event: string, raw: RawAccount, extra: Record<string, unknown> = {}): void {
    this.engine.live.account(this.accountId, this.userId, event, accountData(raw, extra));
  }

  private async run(): Promise<void> {
    const { engine } = this;
    while (!this.stopReason) {
      if (engine.gateway.state(this.deviceId) !== 'connected') {
        await this.releaseNext();
        return this.end('idle');
      }
      const answer: ClaimAnswer = this.next ?? (await engine.ticker.claim(this.accountId));
      const claimedRow = this.nextRow;
      this.next = null;
      this.nextRow = null;
      if (answer.kind === 'none') {
        // Numbers only the send window keeps back come first (it is looked at again at least every minute),
        // then a number waiting for its retry; with neither, the blast is done.
        if (!this.once && (await this.waitForWindow())) continue;
        if (await this.waitForRetry()) continue;
        return this.end('finished');
      }
      if (answer.kind === 'no-template') {
        return this.end('error_blast', { message: this.cloud ? NO_MAPPED_TEMPLATE_MSG : NO_ACTIVE_TEMPLATE_MSG });
      }
      // The row is checked before every send: set idle elsewhere (PUT status, a suspension) or
      // deleted, it ends the loop as a stop would. A target claimed with the last record comes with
      // the row that transaction wrote, as fresh as a read now; a claim of its own reads the row.
      const row = claimedRow ?? (await engine.store.account(this.accountId));
      if (!row || row.status !== 'sending' || row.suspended) this.requestStop(row?.status === 'idle' && !row.suspended ? 'stop' : 'idle');
      if (this.stopReason || !row) {
        await engine.ticker.release(answer.target.id, answer.template.id);
        break;
      }
      if (this.cloud && !(await engine.tiers.allows(this.accountId, row.messaging_tier))) {
        await engine.ticker.release(answer.target.id, answer.template.id);
        return this.end('error_blast', { message: TIER_REACHED });
      }
      const recorded = await this.sendOne(row, answer.target, answer.template);
      if (!recorded) return this.halted ? this.end('error_blast', { message: this.halted }) : this.end(this.stopReason ?? 'idle');
      this.next = recorded.next;
      this.nextRow = recorded.next ? recorded.row : null;
      if (this.once) break;
      await this.sleep(recorded.interval * 1000);
    }
    await this.releaseNext();
    return this.end(this.stopReason ?? 'stop');
  }

  /**
   * Nothing to claim now, but a number waits for its retry: the blast waits for it (see the emits below)
   * instead of finishing with the retry still ahead. False when no retry is pending (or the row is gone).
   */
  private async waitForRetry(): Promise<boolean> {
    const { engine } = this;
    const now = engine.now();
    const at = await engine.store.nextRetryAt(now);
    if (at === null || this.stopReason) return false;
    const row = await engine.store.account(this.accountId);
    if (!row) return false;
    const seconds = Math.max(1, Math.ceil((at - now) / 1000));
    const wait = { waitTime: seconds, waitUntil: new Date(at).toISOString() };
    // Waiting for this loop's own failed number: the spec's 'Fail, attempting (code)...'; else a plain wait.
    const own = this.lastFailure;
    if (own) this.emit('attempting', row, { attempting: true, attemptingCode: own.code, code: own.code, attempt: own.attempt, number: own.number, ...wait });
    else this.emit('waiting', row, { waiting: true, ...wait });
    await this.sleep(at - now);
    return true;
  }

  /**
   * Nothing to claim: while numbers are left that only the send window keeps back, the loop waits for
   * it to open (looking again at least every windowPollMs) and the row says until when. False when
   * nothing is left at all; true after the wait (or when the row was stopped meanwhile).
   */
  private async waitForWindow(): Promise<boolean> {
    const { engine } = this;
    const opening = await engine.windowOpening();
    if (!opening) return false;
    const row = await engine.store.account(this.accountId);
    if (!row || row.status !== 'sending' || row.suspended) {
      this.requestStop(row?.status === 'idle' && !row.suspended ? 'stop' : 'idle');
      return true;
    }
    // Told again on every look (at least every windowPollMs), so a list opened meanwhile learns it too.
    const ahead = opening.at - engine.now();
    if (ahead > 0) this.emit('window_wait', row, { waiting: false, progressing: false, attempting: false, windowOpensAt: opening.clock, windowOpensAtTime: new Date(opening.at).toISOString() });
    await this.sleep(Math.min(engine.options.windowPollMs, Math.max(1000, ahead)));
    return true;
  }

  private async releaseNext(): Promise<void> {
    const next = this.next;
    this.next = null;
    this.nextRow = null;
    if (next?.kind === 'claimed') await this.engine.ticker.release(next.target.id, next.template.id);
  }

  private async send(target: ClaimedTarget, template: RawTemplate): Promise<SendResult> {
    // Only the Cloud API gateway waits between tries; the simulator's sends go without a signal.
    const abort = this.cloud ? new AbortController() : null;
    this.sendAbort = abort;
    if (this.stopReason) abort?.abort();
    try {
      return await this.engine.gateway.send(this.deviceId, composeMessage(template, target), abort?.signal);
    } catch (err) {
      this.engine.log('Gateway send failed', err);
      return { ok: false, error: 'failed' };
    } finally {
      if (this.sendAbort === abort) this.sendAbort = null;
    }
  }

  /**
   * Sends once and records the attempt (a failure whose reason may pass leaves the number waiting for its
   * retry, engine/retry.ts); false when the device dropped or Meta refused the template or the number
   * (`halted` says which), the target released uncounted.
   */
  private async sendOne(
    before: RawAccount,
    target: ClaimedTarget,
    template: RawTemplate,
  ): Promise<{ interval: number; next: ClaimAnswer | null; row: RawAccount | null } | false> {
    const { engine } = this;
    this.sending = true;
    this.currentTarget = target.number;
    // The spec's `progressing` ('Generating...') with the target, sent as each send starts: sent after
    // the record it was always merged away by the `waiting` or next send of the same coalescing window.
    this.emit('progressing', before, { progressing: true, progress: engine.progressNow() ?? (await engine.progress()), number: target.number, target: target.number });
    engine.live.target(target.id, 'in_use', { id: target.id, number: target.number, in_use: 1 });
    const result = await this.send(target, template);
    const halt = !result.ok ? (HALTS[result.error] ?? null) : null;
    if (halt) this.halted = halt;
    // Stopped while Graph kept refusing for its rate limit: the number was not reached, so it is not counted.
    const unsent = this.cloud && this.stopReason !== null && !result.ok && result.error === 'rate_limited';
    if (!result.ok && (DROPPED.has(result.error) || halt || unsent)) {
      const released = await engine.ticker.release(target.id, template.id);
      if (released) engine.live.target(released.id, 'in_use', receiverData(released));
      this.sending = false;
      return false;
    }
    const rec = await engine.ticker.record({
      accountId: this.accountId,
      userId: this.userId,
      target,
      templateId: template.id,
      success: result.ok,
      errorCode: result.ok ? null : result.error,
      claimNext: !this.once && !this.stopReason,
      // Cloud API: paid when Meta reports the message delivered (see server/src/webhooks).
      payOnDelivery: this.cloud,
      messageId: result.ok ? result.messageId : null,
      transient: !result.ok && isTransient(result.error, this.cloud),
    });
    this.sending = false;
    this.lastInterval = rec.interval;
    const event = result.ok ? 'count_success' : 'count_fail';
    if (rec.target) engine.live.target(rec.target.id, event, receiverData(rec.target));
    if (!rec.account) {
      this.stopReason = 'idle';
      return { interval: 0, next: rec.next, row: null };
    }
    this.emit(event, rec.account, { number: target.number, attempting: false, progressing: false, progress: engine.progressNow() ?? (await engine.progress()) });
    this.lastFailure = !result.ok && rec.retryAt !== null ? { code: result.error, attempt: rec.attempt, number: target.number } : null;
    if (this.lastFailure) {
      // The spec's 'Fail, attempting (code)...': the number is tried again once its wait is over.
      const { code } = this.lastFailure;
      this.emit('attempting', rec.account, { attempting: true, attemptingCode: code, code, attempt: rec.attempt, number: target.number, retryAt: new Date(rec.retryAt!).toISOString() });
    }
    if (rec.income > 0) engine.balanceChanged(this.userId);
    if (this.cloud && result.ok) engine.tiers.sent(this.accountId, target.number);
    if (rec.referrerId !== null) engine.balanceChanged(rec.referrerId);
    if (rec.interval > 0 && !this.once && !this.stopReason) {
      this.emit('waiting', rec.account, {
        waiting: true,
        waitTime: rec.interval,
        waitUntil: new Date(Date.now() + rec.interval * 1000).toISOString(),
      });
    }
    return { interval: rec.interval, next: rec.next, row: rec.account };
  }

  /**
   * The row turns idle, then the engine forgets the loop: a start meanwhile waits for `done` instead
   * of starting a second loop that this idle would overwrite.
   */
  private async end(reason: EndReason, extra: Record<string, unknown> = {}): Promise<void> {
    this.ending = true;
    this.sending = false;
    if (this.detached) {
      this.engine.forget(this);
      return;
    }
    let row: RawAccount | undefined;
    try {
      row = await this.engine.setStatus(this.accountId, 'idle');
      // Given back before a start waiting on `done` takes it again.
      await this.engine.leases.give('account', this.accountId).catch((err: unknown) => this.engine.log('Giving back a lease failed', err));
    } finally {
      this.engine.forget(this);
    }
    if (row) this.emit(reason, row, { waiting: false, progressing: false, attempting: false, ...extra });
  }

  private async fail(err: unknown): Promise<void> {
    this.engine.log('Blast loop failed', err);
    await this.releaseNext().catch(() => undefined);
    try {
      await this.end('error_blast', { message: 'Blast berhenti karena kesalahan server' });
    } catch {
      // The database is gone (shutting down): nothing left to tell.
      this.engine.forget(this);
    }
  }
}
