import { referralAmount } from '../money/referral';
import { cooldownCutoff, feeOn, intervalSeconds, readSnapshot, type RuleSnapshot } from './snapshot';
import type { ClaimedTarget, EngineStatements, RawAccount, RawMember, RawTarget, RawTemplate } from './statements';
import { pickTemplate } from './templates';

export type ClaimAnswer = { kind: 'claimed'; target: ClaimedTarget; template: RawTemplate } | { kind: 'none' } | { kind: 'no-template' };

export interface Attempt {
  accountId: number;
  userId: number;
  target: ClaimedTarget;
  templateId: number;
  success: boolean;
  errorCode: string | null;
  /** Claim the account's next target in the same transaction when its interval is 0. */
  claimNext: boolean;
}

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
}

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for every loop: claims, releases and attempt records asked for during one turn of
 * the event loop run together in one transaction on the next turn. Each attempt still gets its own
 * log row, counter updates and referral credit, all committed (or none) with the others.
 */
export class Ticker {
  private claims: Array<Waiter<ClaimAnswer> & { accountId: number }> = [];
  private releases: Array<Waiter<RawTarget | null> & { targetId: number }> = [];
  private records: Array<Waiter<Recorded> & { attempt: Attempt }> = [];
  private scheduled = false;
  /** Templates picked for sends not yet recorded, so one tick's picks spread over the templates. */
  private readonly inFlight = new Map<number, number>();
  ticks = 0;
  private readonly inTransaction: (fn: () => void) => void;

  constructor(
    private readonly st: EngineStatements,
    private readonly random: () => number = Math.random,
  ) {
    const txn = st.sqlite.transaction((fn: () => void) => fn());
    this.inTransaction = (fn) => txn.immediate(fn);
  }

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
    return new Promise((resolve, reject) => {
      this.records.push({ attempt, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.run());
  }

  private settle(templateId: number): void {
    const n = (this.inFlight.get(templateId) ?? 1) - 1;
    if (n > 0) this.inFlight.set(templateId, n);
    else this.inFlight.delete(templateId);
  }

  private run(): void {
    this.scheduled = false;
    const claims = this.claims;
    const releases = this.releases;
    const records = this.records;
    this.claims = [];
    this.releases = [];
    this.records = [];
    if (!claims.length && !releases.length && !records.length) return;
    this.ticks += 1;
    const now = Date.now();
    const results: { claims: ClaimAnswer[]; releases: Array<RawTarget | null>; records: Recorded[] } = { claims: [], releases: [], records: [] };
    try {
      const snap = readSnapshot(this.st);
      const body = () => {
        for (const r of records) results.records.push(this.recordOne(snap, r.attempt, now));
        for (const r of releases) results.releases.push(this.st.release.get(r.targetId) ?? null);
        results.records.forEach((rec, i) => {
          if (rec.account && rec.interval === 0 && records[i]!.attempt.claimNext) rec.next = this.claimOne(snap, rec.account.id, now);
        });
        for (const c of claims) results.claims.push(this.claimOne(snap, c.accountId, now));
      };
      this.inTransaction(body);
    } catch (err) {
      // Nothing of this tick was committed: claims were not taken, records not written.
      for (const answer of [...results.claims, ...results.records.map((r) => r.next)]) {
        if (answer?.kind === 'claimed') this.settle(answer.template.id);
      }
      for (const c of claims) c.reject(err);
      for (const r of releases) r.reject(err);
      for (const r of records) r.reject(err);
      return;
    }
    for (const r of records) this.settle(r.attempt.templateId);
    records.forEach((r, i) => r.resolve(results.records[i]!));
    releases.forEach((r, i) => r.resolve(results.releases[i]!));
    claims.forEach((c, i) => c.resolve(results.claims[i]!));
  }

  private claimOne(snap: RuleSnapshot, accountId: number, now: number): ClaimAnswer {
    const template = pickTemplate(snap.templates, this.inFlight);
    if (!template) return { kind: 'no-template' };
    const target = this.st.claim.get({ accountId, cutoff: cooldownCutoff(snap, now) });
    if (!target) return { kind: 'none' };
    this.inFlight.set(template.id, (this.inFlight.get(template.id) ?? 0) + 1);
    return { kind: 'claimed', target, template };
  }

  /**
   * The referral rule of the money area (money/referral.ts `creditReferral`: the member's referrer,
   * if any and not themselves, gets floor(income × referral_percent / 100) when above 0), written
   * with prepared statements because it runs for every earning of a referred member.
   */
  private creditReferrer(snap: RuleSnapshot, a: Attempt, member: RawMember | undefined, income: number, logId: number, now: number): number | null {
    const referrerId = member?.referred_by ?? null;
    if (referrerId === null || referrerId === a.userId) return null;
    const amount = referralAmount(income, snap.settings.referral_percent);
    if (amount <= 0 || !this.st.userExists.get(referrerId)) return null;
    this.st.insertCredit.run({ referrerId, referredId: a.userId, messageLogId: logId, amount, now });
    return referrerId;
  }

  /** One attempt: log row, account and member counters, number counts and release, template use, referral. */
  private recordOne(snap: RuleSnapshot, a: Attempt, now: number): Recorded {
    const st = this.st;
    const member = st.member.get(a.userId);
    const income = a.success && member ? feeOn(snap, member) : 0;
    const success = a.success ? 1 : 0;
    const fail = a.success ? 0 : 1;
    const log = st.insertLog.run({
      whatsappId: a.accountId,
      userId: a.userId,
      phoneNumberId: a.target.id,
      number: a.target.number,
      templateId: a.templateId,
      success,
      errorCode: a.errorCode,
      income,
      now,
    });
    const account = st.addToAccount.get({ id: a.accountId, success, fail, income, now });
    st.addToMember.run({ id: a.userId, success, fail, income });
    const target = st.markSent.get({ id: a.target.id, success, fail, now });
    st.useTemplate.run(a.templateId);
    const referrerId = income > 0 ? this.creditReferrer(snap, a, member, income, Number(log.lastInsertRowid), now) : null;
    const interval = account ? intervalSeconds(snap, account, member, this.random) : 0;
    return { account: account ?? null, target: target ?? null, income, interval, referrerId, next: null };
  }
}
