import { referralAmount } from '../money/referral';
import { cooldownCutoff, feeOn, intervalSeconds, readSnapshot, type RuleSnapshot } from './snapshot';
import type { ClaimedTarget, EngineStore, RawAccount, RawTarget, RawTemplate, SendRecord, SendRules } from './store';
import { isMapped, pickTemplate } from './templates';
import { engineTicks, messages } from '../metrics/registry';
import { DEFAULT_RETRY_WAIT, MAX_ATTEMPTS_DEFAULT, retryOutcome, type RetryWait } from './retry';
import { windowFilter, windowOf } from './window';

export type ClaimAnswer = { kind: 'claimed'; target: ClaimedTarget; template: RawTemplate } | { kind: 'none' } | { kind: 'no-template' };

/** A send to record (see SendRecord). */
export type Attempt = SendRecord;

export interface Recorded {
  /** Null when the account or the number was deleted while the send was in flight. */
  account: RawAccount | null;
  target: RawTarget | null;
  income: number;
  /** Seconds to wait before the account's next send. */
  interval: number;
  /** Users whose balance changed (the member, and a credited referrer). */
  referrerId: number | null;
  /** The next target, claimed with the record (see Attempt.claimNext). */
  next: ClaimAnswer | null;
  /** A failed send: when the number's next attempt is due, or null (sent, or failed for good). */
  retryAt: number | null;
  /** The number failed for good ('Gagal permanen'). */
  failed: boolean;
  /** Which attempt at the number's message this send was. */
  attempt: number;
}

/** Most claims, releases and records one tick takes (each); the rest go in the next tick. */
export const TICK_LIMIT = 200;

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for every loop: claims, releases and attempt records asked for during one turn of
 * the event loop go to the store together, as one tick in one transaction. Each attempt still gets
 * its own log row, counter updates and referral credit, all committed (or none) with the others.
 * One tick runs at a time, holding at most TICK_LIMIT of each kind; what is asked for meanwhile, or
 * beyond the limit, waits for the next one.
 */
export class Ticker {
  private claims: Array<Waiter<ClaimAnswer> & { accountId: number }> = [];
  private releases: Array<Waiter<RawTarget | null> & { targetId: number }> = [];
  private records: Array<Waiter<Recorded> & { attempt: Attempt }> = [];
  private scheduled = false;
  private running = false;
  /** Work waiting to run between two ticks (`betweenTicks`). */
  private between: Array<() => Promise<void>> = [];
  /** Records asked for and not committed (or failed) yet. */
  private readonly unsettled = new Set<Promise<void>>();
  /** Templates picked for sends not yet recorded, so one tick's picks spread over the templates. */
  private readonly inFlight = new Map<number, number>();
  /** Accounts that may send only templates mapped to an approved Cloud API template. */
  readonly mappedOnly = new Set<number>();
  ticks = 0;
  /** The engine's clock (tests set a fake one): the tick's time, cooldown cut-off and send window. */
  now: () => number = Date.now;

  constructor(
    private readonly store: EngineStore,
    private readonly random: () => number = Math.random,
    /** The retry policy's waits (engine/retry.ts); read at every tick, so a change applies at once. */
    readonly retryWait: RetryWait = { ...DEFAULT_RETRY_WAIT },
  ) {}

  claim(accountId: number): Promise<ClaimAnswer> {
    return new Promise((resolve, reject) => {
      this.claims.push({ accountId, resolve, reject });
      this.schedule();
    });
  }

  release(targetId: number, templateId: number | null): Promise<RawTarget | null> {
    if (templateId !== null) this.settle(templateId);
    return new Promise((resolve, reject) => {
      this.releases.push({ targetId, resolve, reject });
      this.schedule();
    });
  }

  record(attempt: Attempt): Promise<Recorded> {
    const recorded = new Promise<Recorded>((resolve, reject) => {
      this.records.push({ attempt, resolve, reject });
      this.schedule();
    });
    const settled = recorded.then(
      () => undefined,
      () => undefined,
    );
    this.unsettled.add(settled);
    void settled.then(() => this.unsettled.delete(settled));
    return recorded;
  }

  /** Resolves once every record asked for before this call is committed (or has failed). */
  recordsSettled(): Promise<void> {
    if (!this.unsettled.size) return Promise.resolve();
    return Promise.all(this.unsettled).then(() => undefined);
  }

  private schedule(): void {
    if (this.scheduled || this.running) return;
    if (!this.between.length && !this.claims.length && !this.releases.length && !this.records.length) return;
    this.scheduled = true;
    setImmediate(() => void this.run());
  }

  private settle(templateId: number): void {
    const n = (this.inFlight.get(templateId) ?? 1) - 1;
    if (n > 0) this.inFlight.set(templateId, n);
    else this.inFlight.delete(templateId);
  }

  /** The templates an account may send: every active one, or the mapped ones for a Cloud API account. */
  private templatesFor(snap: RuleSnapshot, accountId: number): RawTemplate[] {
    return this.mappedOnly.has(accountId) ? snap.templates.filter(isMapped) : snap.templates;
  }

  /** A claimed target gets the template with the fewest uses, counting sends in flight. */
  private answer(snap: RuleSnapshot, target: ClaimedTarget | null, accountId: number): ClaimAnswer {
    if (!target) return { kind: 'none' };
    const template = pickTemplate(this.templatesFor(snap, accountId), this.inFlight)!;
    this.inFlight.set(template.id, (this.inFlight.get(template.id) ?? 0) + 1);
    return { kind: 'claimed', target, template };
  }

  /** Every claim's answer in the order asked: the claims made in the order the store answered them, the rest no-template. */
  private claimAnswers(
    snap: RuleSnapshot,
    claims: Array<{ accountId: number }>,
    claiming: Array<{ accountId: number }>,
    targets: Array<ClaimedTarget | null>,
  ): ClaimAnswer[] {
    const made = new Map(claiming.map((c, i) => [c, targets[i] ?? null] as const));
    return claims.map((c) => (made.has(c) ? this.answer(snap, made.get(c)!, c.accountId) : { kind: 'no-template' }));
  }

  /**
   * Runs `fn` between two of this node's ticks: no tick runs while it does. For other writes to the rows a
   * tick writes (the delivery reports' day counters), so a tick and such a write never wait on each other's
   * row locks.
   */
  betweenTicks<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.between.push(() => fn().then(resolve, reject));
      this.schedule();
    });
  }

  private async run(): Promise<void> {
    this.scheduled = false;
    if (this.between.length) {
      const jobs = this.between.splice(0);
      this.running = true;
      try {
        for (const job of jobs) await job();
      } finally {
        this.running = false;
        this.schedule();
      }
      return;
    }
    // At most TICK_LIMIT of each kind per tick: a tick's transaction runs on the main thread (SQLite),
    // so a bounded one keeps the event loop answering sockets and requests between ticks.
    const claims = this.claims.splice(0, TICK_LIMIT);
    const releases = this.releases.splice(0, TICK_LIMIT);
    const records = this.records.splice(0, TICK_LIMIT);
    if (!claims.length && !releases.length && !records.length) return;
    this.running = true;
    this.ticks += 1;
    const stopTimer = engineTicks.startTimer();
    try {
      await this.runTick(claims, releases, records);
    } finally {
      stopTimer();
      this.running = false;
      if (this.claims.length || this.releases.length || this.records.length) this.schedule();
    }
  }

  private async runTick(
    claims: Array<Waiter<ClaimAnswer> & { accountId: number }>,
    releases: Array<Waiter<RawTarget | null> & { targetId: number }>,
    records: Array<Waiter<Recorded> & { attempt: Attempt }>,
  ): Promise<void> {
    const now = this.now();
    let answers: { claims: ClaimAnswer[]; releases: Array<RawTarget | null>; records: Recorded[] };
    try {
      const snap = await readSnapshot(this.store);
      // With no active template (for a Cloud API account: none mapped) nothing is claimed: the loop
      // ends with the spec's message.
      const usable = (accountId: number) => this.templatesFor(snap, accountId).length > 0;
      const claiming = claims.filter((c) => usable(c.accountId));
      const rules: SendRules = {
        fee: (member) => feeOn(snap, member),
        referral: (income) => referralAmount(income, snap.settings.referral_percent),
        interval: (account, member) => intervalSeconds(snap, account, member, this.random),
      };
      // The retry policy decides here, on the tick's settings, what each failed send leaves its number with.
      const sends = records.map((r) => {
        const a = r.attempt;
        const outcome = retryOutcome(a, a.target.attempt ?? 1, snap.settings.max_attempts ?? MAX_ATTEMPTS_DEFAULT, now, this.retryWait, this.random);
        return { ...a, ...outcome, claimNext: a.claimNext && usable(a.accountId) };
      });
      const done = await this.store.tick({
        now,
        cutoff: cooldownCutoff(snap, now),
        records: sends,
        releases: releases.map((r) => r.targetId),
        claims: claiming.map((c) => c.accountId),
        window: windowFilter(windowOf(snap.settings), now),
        rules,
      });
      answers = {
        records: done.records.map((rec, i) => {
          const { accountId, claimNext } = records[i]!.attempt;
          const wanted = rec.account !== null && rec.interval === 0 && claimNext;
          const next: ClaimAnswer | null = !wanted ? null : usable(accountId) ? this.answer(snap, rec.next, accountId) : { kind: 'no-template' };
          const { retryAt, failed } = sends[i]!;
          const attempt = sends[i]!.target.attempt ?? 1;
          return { account: rec.account, target: rec.target, income: rec.income, interval: rec.interval, referrerId: rec.referrerId, next, retryAt, failed, attempt };
        }),
        releases: done.releases,
        claims: this.claimAnswers(snap, claims, claiming, done.claims),
      };
    } catch (err) {
      // Nothing of this tick was committed: claims were not taken, records not written.
      for (const c of claims) c.reject(err);
      for (const r of releases) r.reject(err);
      for (const r of records) r.reject(err);
      return;
    }
    for (const r of records) messages.inc({ result: r.attempt.success ? 'sent' : 'failed' });
    for (const r of records) this.settle(r.attempt.templateId);
    records.forEach((r, i) => r.resolve(answers.records[i]!));
    releases.forEach((r, i) => r.resolve(answers.releases[i]!));
    claims.forEach((c, i) => c.resolve(answers.claims[i]!));
  }
}
