import type Database from 'better-sqlite3';
import type { Db } from '../client';
import { gate } from '../gate';
import { prepareAlone } from './statements';
import type {
  ClaimedTarget,
  EngineStore,
  RawAccount,
  RawLevel,
  RawMember,
  RawSettings,
  RawTarget,
  RawTemplate,
  RecordedSend,
  RuleRows,
  SendRecord,
  TickDone,
  TickWork,
} from '../../engine/store';
import { targetOutcome } from '../../engine/retry';

/**
 * The blast engine's store on SQLite: raw better-sqlite3 statements prepared once per database (the
 * query builder's per-call SQL generation would cost more than the writes) and one synchronous
 * IMMEDIATE transaction per tick. Every function first waits until no asynchronous transaction of
 * another caller holds the connection, then runs without yielding.
 */

const TARGET_COLUMNS = 'id, number, name, status, in_use, count_success, count_fail, last_sent, send_attempts, next_attempt_at, last_error, last_failed_at, failed_at';

/**
 * A target is eligible when it is active, not claimed, not on the suppression list and not
 * messaged since the cooldown cut-off, and its local time is inside the send window. Never-sent numbers come first, then the oldest last_sent;
 * each half is one seek on phone_numbers_target_idx (status, in_use, last_sent).
 */
const NOT_OPTED_OUT = 'NOT EXISTS (SELECT 1 FROM opt_outs o WHERE o.number = p.number)';
/** A number waiting for its retry (engine/retry.ts) is not claimed before its time. */
const RETRY_DUE = '(p.next_attempt_at IS NULL OR p.next_attempt_at <= @now)';
/**
 * 'Jam Kirim' (engine/window.ts): @codes a JSON array of calling codes, @match 1 when the number's code
 * must be among them, 0 when it must not. Codes are prefix-free: at most one of the first 1–3 digits is one.
 */
const CODES = '(SELECT value FROM json_each(@codes))';
export const IN_SEND_WINDOW = `((substr(p.number, 1, 1) IN ${CODES} OR substr(p.number, 1, 2) IN ${CODES} OR substr(p.number, 1, 3) IN ${CODES}) = @match)`;
const CLAIM_SQL = `
  UPDATE phone_numbers SET in_use = 1, claimed_by = @accountId
  WHERE id = coalesce(
    (SELECT p.id FROM phone_numbers p INDEXED BY phone_numbers_target_idx
      WHERE p.status = 'active' AND p.in_use = 0 AND p.last_sent IS NULL AND ${NOT_OPTED_OUT} AND ${RETRY_DUE} AND ${IN_SEND_WINDOW}
      ORDER BY p.last_sent, p.id LIMIT 1),
    (SELECT p.id FROM phone_numbers p INDEXED BY phone_numbers_target_idx
      WHERE p.status = 'active' AND p.in_use = 0 AND p.last_sent <= @cutoff AND ${NOT_OPTED_OUT} AND ${RETRY_DUE} AND ${IN_SEND_WINDOW}
      ORDER BY p.last_sent LIMIT 1))
  RETURNING id, number, name, CASE WHEN next_attempt_at IS NULL THEN 1 ELSE send_attempts + 1 END AS attempt`;

/**
 * Every statement of the engine's store, by name (bench/floor.ts runs the same text bare).
 */
export const SQLITE_ENGINE_SQL = {
  claim: CLAIM_SQL,
  release: `UPDATE phone_numbers SET in_use = 0, claimed_by = NULL WHERE id = ? RETURNING ${TARGET_COLUMNS}`,
  // A send with a retry ahead leaves last_sent as it was (the cooldown would hold the retry back); one that
  // failed for good turns the number nonactive, as an opt-out does, until an admin activates it again.
  markSent: `UPDATE phone_numbers SET count_success = count_success + @success, count_fail = count_fail + @fail,
         last_sent = CASE WHEN @retryAt IS NULL THEN @now ELSE last_sent END, in_use = 0, claimed_by = NULL,
         send_attempts = @attempt, next_attempt_at = @retryAt, last_error = coalesce(@errorCode, last_error),
         last_failed_at = CASE WHEN @fail = 1 THEN @now ELSE last_failed_at END,
         failed_at = CASE WHEN @failed = 1 THEN @now ELSE failed_at END,
         status = CASE WHEN @failed = 1 THEN 'nonactive' ELSE status END
       WHERE id = @id RETURNING ${TARGET_COLUMNS}`,
  member: 'SELECT blast_fee, total_success, blast_interval_min, blast_interval_max, referred_by FROM users WHERE id = ?',
  account: 'SELECT * FROM whatsapps WHERE id = ?',
  addToAccount: `UPDATE whatsapps SET count_success = count_success + @success, count_fail = count_fail + @fail,
         income = income + @income, updated_at = @now WHERE id = @id RETURNING *`,
  setStatus: 'UPDATE whatsapps SET status = @status, updated_at = @now WHERE id = @id RETURNING *',
  addToMember: `UPDATE users SET total_success = total_success + @success, total_fail = total_fail + @fail,
         income = income + @income WHERE id = @id`,
  insertLog: `INSERT INTO message_logs (whatsapp_id, user_id, phone_number_id, number, template_id, success, error_code, income, wa_message_id, delivery_status, status_at, created_at)
       VALUES (@whatsappId, @userId, @phoneNumberId, @number, @templateId, @success, @errorCode, @income, @waMessageId, @deliveryStatus, @statusAt, @now)`,
  useTemplate: 'UPDATE message_templates SET count_use = count_use + 1 WHERE id = ?',
  referrerIsMember: "SELECT id FROM users WHERE id = ? AND role = 'member'",
  insertCredit: `INSERT INTO referral_credits (referrer_id, referred_id, message_log_id, amount, created_at)
       VALUES (@referrerId, @referredId, @messageLogId, @amount, @now)`,
  settings: 'SELECT interval_min, interval_max, price, referral_percent, recipient_cooldown_hours, max_attempts, send_from, send_to, time_zone FROM settings WHERE id = 1',
  levels: 'SELECT blast_fee, requirement_blast FROM levels ORDER BY requirement_blast, id',
  templates: "SELECT id, media, text, text_wa, button, count_use, wa_template_name, wa_template_language, wa_template_params FROM message_templates WHERE status = 'active' ORDER BY count_use, id",
  optedOut: 'SELECT count(*) AS n FROM opt_outs WHERE number = ?',
  targetByNumber: `SELECT ${TARGET_COLUMNS} FROM phone_numbers WHERE number = ?`,
  releaseAll: `UPDATE phone_numbers SET in_use = 0, claimed_by = NULL, last_sent = max(coalesce(last_sent, 0), @now)
       WHERE status IN ('active', 'nonactive') AND in_use = 1 RETURNING ${TARGET_COLUMNS}`,
  sendingAccounts: "SELECT * FROM whatsapps WHERE status = 'sending' AND id > ? ORDER BY id LIMIT ?",
  nextRetryAt: `SELECT min(next_attempt_at) AS at FROM phone_numbers INDEXED BY phone_numbers_retry_idx
       WHERE next_attempt_at IS NOT NULL AND next_attempt_at > ? AND status = 'active' AND in_use = 0`,
  waitingPrefixes: `SELECT DISTINCT substr(p.number, 1, 3) AS prefix FROM phone_numbers p
       WHERE p.status = 'active' AND p.in_use = 0 AND (p.last_sent IS NULL OR p.last_sent <= ?) AND ${NOT_OPTED_OUT}`,
} as const;

type Stmt<P extends unknown[] | object, R = unknown> = Database.Statement<P extends unknown[] ? P : [P], R>;

class Statements {
  readonly claim: Stmt<{ accountId: number; cutoff: number; now: number; codes: string; match: number }, ClaimedTarget>;
  readonly release: Stmt<[number], RawTarget>;
  readonly markSent: Stmt<
    { id: number; success: number; fail: number; now: number; attempt: number; retryAt: number | null; failed: number; errorCode: string | null },
    RawTarget
  >;
  readonly member: Stmt<[number], RawMember>;
  readonly account: Stmt<[number], RawAccount>;
  readonly addToAccount: Stmt<{ id: number; success: number; fail: number; income: number; now: number }, RawAccount>;
  readonly setStatus: Stmt<{ id: number; status: 'idle' | 'sending'; now: number }, RawAccount>;
  readonly addToMember: Stmt<{ id: number; success: number; fail: number; income: number }>;
  readonly insertLog: Stmt<{
    whatsappId: number;
    userId: number;
    phoneNumberId: number;
    number: string;
    templateId: number | null;
    success: number;
    errorCode: string | null;
    income: number;
    waMessageId: string | null;
    deliveryStatus: string | null;
    statusAt: number | null;
    now: number;
  }>;
  readonly useTemplate: Stmt<[number]>;
  readonly referrerIsMember: Stmt<[number], { id: number }>;
  readonly insertCredit: Stmt<{ referrerId: number; referredId: number; messageLogId: number; amount: number; now: number }>;
  readonly settings: Stmt<[], RawSettings>;
  readonly levels: Stmt<[], RawLevel>;
  readonly templates: Stmt<[], RawTemplate>;
  readonly optedOut: Stmt<[string], { n: number }>;
  readonly targetByNumber: Stmt<[string], RawTarget>;
  readonly releaseAll: Stmt<{ now: number }, RawTarget>;
  readonly sendingAccounts: Stmt<[number, number], RawAccount>;
  readonly nextRetryAt: Stmt<[number], { at: number | null }>;
  readonly waitingPrefixes: Stmt<[number], { prefix: string }>;
  readonly tick: (fn: () => void) => void;

  constructor(readonly sqlite: Database.Database) {
    const s = sqlite;
    const prep = <P extends unknown[] | object, R = unknown>(source: string): Stmt<P, R> => prepareAlone<P, R>(s, source) as Stmt<P, R>;
    this.claim = prep(SQLITE_ENGINE_SQL.claim);
    this.release = prep<[number], RawTarget>(SQLITE_ENGINE_SQL.release);
    this.markSent = prep(SQLITE_ENGINE_SQL.markSent);
    this.member = prep<[number], RawMember>(SQLITE_ENGINE_SQL.member);
    this.account = prep<[number], RawAccount>(SQLITE_ENGINE_SQL.account);
    this.addToAccount = prep(SQLITE_ENGINE_SQL.addToAccount);
    this.setStatus = prep(SQLITE_ENGINE_SQL.setStatus);
    this.addToMember = prep(SQLITE_ENGINE_SQL.addToMember);
    this.insertLog = prep(SQLITE_ENGINE_SQL.insertLog);
    this.useTemplate = prep<[number]>(SQLITE_ENGINE_SQL.useTemplate);
    this.referrerIsMember = prep<[number], { id: number }>(SQLITE_ENGINE_SQL.referrerIsMember);
    this.insertCredit = prep(SQLITE_ENGINE_SQL.insertCredit);
    this.settings = prep(SQLITE_ENGINE_SQL.settings);
    this.levels = prep(SQLITE_ENGINE_SQL.levels);
    this.templates = prep(SQLITE_ENGINE_SQL.templates);
    this.optedOut = prep<[string], { n: number }>(SQLITE_ENGINE_SQL.optedOut);
    this.targetByNumber = prep<[string], RawTarget>(SQLITE_ENGINE_SQL.targetByNumber);
    this.releaseAll = prep(SQLITE_ENGINE_SQL.releaseAll);
    this.sendingAccounts = prep<[number, number], RawAccount>(SQLITE_ENGINE_SQL.sendingAccounts);
    this.nextRetryAt = prep<[number], { at: number | null }>(SQLITE_ENGINE_SQL.nextRetryAt);
    this.waitingPrefixes = prep<[number], { prefix: string }>(SQLITE_ENGINE_SQL.waitingPrefixes);
    const txn = s.transaction((fn: () => void) => fn());
    this.tick = (fn) => txn.immediate(fn);
  }
}

const prepared = new WeakMap<Database.Database, Statements>();

function statementsOf(db: Db): Statements {
  const sqlite = (db as unknown as { $client: Database.Database }).$client;
  let st = prepared.get(sqlite);
  if (!st) {
    st = new Statements(sqlite);
    prepared.set(sqlite, st);
  }
  return st;
}

/**
 * Runs `fn` once no asynchronous transaction of another caller holds the connection, in the same
 * turn as that check: synchronous work can then neither join nor interleave with someone else's
 * open transaction.
 */
async function exclusive<T>(fn: () => T): Promise<T> {
  while (gate.blocked()) await gate.free();
  return fn();
}

/** The referral rule: the member's referrer, if any, not themselves, still there and still a member, gets rules.referral(income). */
function creditReferrer(st: Statements, work: TickWork, r: SendRecord, member: RawMember | undefined, income: number, logId: number): number | null {
  const referrerId = member?.referred_by ?? null;
  if (referrerId === null || referrerId === r.userId) return null;
  const amount = work.rules.referral(income);
  if (amount <= 0 || !st.referrerIsMember.get(referrerId)) return null;
  st.insertCredit.run({ referrerId, referredId: r.userId, messageLogId: logId, amount, now: work.now });
  return referrerId;
}

/** One send: log row, account and member counters, number counts and release, template use, referral. */
function recordOne(st: Statements, work: TickWork, r: SendRecord): RecordedSend {
  const { now } = work;
  const member = st.member.get(r.userId);
  const income = r.success && member && !r.payOnDelivery ? work.rules.fee(member) : 0;
  const success = r.success ? 1 : 0;
  const fail = r.success ? 0 : 1;
  // An accepted send whose delivery the gateway reports later (Cloud API webhooks, the simulator's statuses).
  const accepted = r.success && !!r.messageId;
  const log = st.insertLog.run({
    waMessageId: r.messageId ?? null,
    deliveryStatus: accepted ? 'sent' : null,
    statusAt: accepted ? now : null,
    whatsappId: r.accountId,
    userId: r.userId,
    phoneNumberId: r.target.id,
    number: r.target.number,
    templateId: r.templateId,
    success,
    errorCode: r.errorCode,
    income,
    now,
  });
  const account = st.addToAccount.get({ id: r.accountId, success, fail, income, now });
  st.addToMember.run({ id: r.userId, success, fail, income });
  const target = st.markSent.get({ id: r.target.id, success, fail, now, errorCode: r.errorCode, ...targetOutcome(r) });
  st.useTemplate.run(r.templateId);
  const referrerId = income > 0 ? creditReferrer(st, work, r, member, income, Number(log.lastInsertRowid)) : null;
  const interval = account ? work.rules.interval(account, member) : 0;
  return { account: account ?? null, target: target ?? null, income, interval, referrerId, next: null };
}

function tick(st: Statements, work: TickWork): TickDone {
  const done: TickDone = { records: [], releases: [], claims: [] };
  const window = { codes: JSON.stringify(work.window.codes), match: work.window.match ? 1 : 0 };
  const claim = (accountId: number) => st.claim.get({ accountId, cutoff: work.cutoff, now: work.now, ...window }) ?? null;
  st.tick(() => {
    for (const r of work.records) done.records.push(recordOne(st, work, r));
    for (const id of work.releases) done.releases.push(st.release.get(id) ?? null);
    done.records.forEach((rec, i) => {
      if (rec.account && rec.interval === 0 && work.records[i]!.claimNext) rec.next = claim(rec.account.id);
    });
    for (const accountId of work.claims) done.claims.push(claim(accountId));
  });
  return done;
}

/** The engine store on an SQLite database. */
export function sqliteEngineStore(db: Db): EngineStore {
  const st = statementsOf(db);
  return {
    rules: () =>
      exclusive((): RuleRows => ({ settings: st.settings.get() ?? null, levels: st.levels.all(), templates: st.templates.all() })),
    tick: (work) => exclusive(() => tick(st, work)),
    account: (id) => exclusive(() => st.account.get(id)),
    setStatus: (id, status, now) => exclusive(() => (st.sqlite.open ? st.setStatus.get({ id, status, now }) : undefined)),
    isOptedOut: (number) => exclusive(() => (st.optedOut.get(number)?.n ?? 0) > 0),
    targetByNumber: (number) => exclusive(() => st.targetByNumber.get(number)),
    releaseAbandoned: (now) =>
      exclusive(() => {
        let released: RawTarget[] = [];
        st.tick(() => {
          released = st.releaseAll.all({ now });
        });
        return released;
      }),
    sendingAccounts: (after, limit) => exclusive(() => st.sendingAccounts.all(after, limit)),
    nextRetryAt: (now) => exclusive(() => st.nextRetryAt.get(now)?.at ?? null),
    waitingPrefixes: (cutoff) => exclusive(() => st.waitingPrefixes.all(cutoff).map((r) => r.prefix)),
    isOpen: () => st.sqlite.open,
  };
}

/** False once the database behind the handle is closed. */
export function sqliteIsOpen(db: Db): boolean {
  return (db as unknown as { $client: Database.Database }).$client.open;
}
