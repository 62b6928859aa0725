import type pg from 'pg';
import type { ClaimedTarget, RawAccount, RawMember, RawTarget, RecordedSend, SendRecord, TickDone, TickWork } from '../../engine/store';
import { targetOutcome } from '../../engine/retry';
import type { WindowFilter } from '../../engine/window';

/**
 * The engine's tick on PostgreSQL as set-based statements: whatever a tick holds (one send or a
 * thousand), it is at most four statements inside one transaction:
 *
 *  1. `members`: the paid members, locked in id order, with whether their referrer is a member;
 *  2. `record`: every send at once (log rows, referral credits, account, member, number and template
 *     counters), arrays in through `unnest`, data-modifying CTEs out;
 *  3. `release`: the claims given back;
 *  4. `claim`: the next target of every account that wants one (CLAIM_TARGETS).
 *
 * The rules stay in TypeScript: between 1 and 2 the fee, referral and interval are worked out on the
 * rows read in 1, send after send in the order the per-send store used (by member, then as asked), so a
 * member's second send of a tick is priced on the total after the first, exactly as before.
 */

/** A number waiting for its retry (engine/retry.ts) is not claimed before its time ($3, the tick's now). */
export const RETRY_DUE = '(p.next_attempt_at IS NULL OR p.next_attempt_at <= $3)';

/**
 * 'Jam Kirim' (engine/window.ts): $4 calling codes, $5 whether the number's code must be among them.
 * Codes are prefix-free, so at most one of the number's first 1–3 digits is one.
 */
export const IN_SEND_WINDOW = `((left(p.number, 1) = ANY($4::text[]) OR left(p.number, 2) = ANY($4::text[]) OR left(p.number, 3) = ANY($4::text[])) = $5::boolean)`;

/**
 * Whether a number may be claimed now, on an alias `p` of phone_numbers: active, not claimed, not opted
 * out. Conditions every claim must meet (a send window, a retry time) belong here.
 */
export const CLAIMABLE = `p.status = 'active' AND p.in_use = 0 AND NOT EXISTS (SELECT 1 FROM opt_outs o WHERE o.number = p.number) AND ${RETRY_DUE} AND ${IN_SEND_WINDOW}`;

/**
 * The claim: $1 the accounts in the order asked, $2 the cooldown cut-off, $3 now, $4 and $5 the send window. The numbers never sent go
 * first (by id), then those sent longest ago at or before the cut-off (by last_sent, id); the n-th
 * account asking gets the n-th number. `FOR UPDATE SKIP LOCKED` makes nodes claiming at the same time
 * take different numbers without waiting for each other. The second pass only runs for what the first
 * left short (its LIMIT is 0 otherwise).
 */
export const CLAIM_TARGETS = `WITH want AS (
    SELECT w.account_id, w.ord FROM unnest($1::int[]) WITH ORDINALITY AS w(account_id, ord)
  ), fresh AS (
    SELECT p.id, 0 AS pass, 0::bigint AS sent FROM phone_numbers p
    WHERE ${CLAIMABLE} AND p.last_sent IS NULL
    ORDER BY p.id LIMIT cardinality($1::int[]) FOR UPDATE SKIP LOCKED
  ), cooled AS (
    SELECT p.id, 1 AS pass, p.last_sent AS sent FROM phone_numbers p
    WHERE ${CLAIMABLE} AND p.last_sent <= $2
    ORDER BY p.last_sent, p.id LIMIT greatest(0, cardinality($1::int[]) - (SELECT count(*) FROM fresh)) FOR UPDATE SKIP LOCKED
  ), picked AS (
    SELECT c.id, row_number() OVER (ORDER BY c.pass, c.sent, c.id) AS ord FROM (SELECT * FROM fresh UNION ALL SELECT * FROM cooled) c
  )
  UPDATE phone_numbers p SET in_use = 1, claimed_by = want.account_id
  FROM picked JOIN want ON want.ord = picked.ord
  WHERE p.id = picked.id
  RETURNING want.ord, p.id, p.number, p.name, CASE WHEN p.next_attempt_at IS NULL THEN 1 ELSE p.send_attempts + 1 END AS attempt`;

export const TARGET_COLUMNS = 'id, number, name, status, in_use, count_success, count_fail, last_sent, send_attempts, next_attempt_at, last_error, last_failed_at, failed_at';

/**
 * How every tick's transaction begins. Ticks of several nodes never wait on each other's rows in
 * opposite orders: the members (statement 1) and the templates (statement 2) are locked in id order;
 * accounts and numbers belong to one node's loops; the shared figures the triggers keep are written at
 * the end of statement 2, one row per table in the same order for every tick, most of them in a shard
 * of the backend's own.
 *
 * The tick's commit does not wait for the WAL to reach the disk (`synchronous_commit = off` for this
 * transaction only), which is what SQLite's tick does too (WAL with `synchronous = NORMAL`): a crash of
 * the PostgreSQL server or of its machine may lose the last ticks committed (at most about three
 * `wal_writer_delay`s, 0.6 s by default), never part of one, and the database stays consistent; a crash
 * of the node loses nothing committed. Money moved by people (top-ups, withdrawals, transfers) keeps
 * waiting for the disk (`moneyTransaction`). One round trip, as a plain BEGIN.
 */
export const TICK_BEGIN = 'BEGIN; SET LOCAL synchronous_commit = off';

export const TICK_SQL = {
  /** The members a tick pays, locked in id order, and whether each one's referrer is a member. */
  members: `SELECT u.id, u.blast_fee, u.total_success, u.blast_interval_min, u.blast_interval_max, u.referred_by,
      EXISTS (SELECT 1 FROM users r WHERE r.id = u.referred_by AND r.role = 'member') AS referrer_is_member
    FROM users u WHERE u.id = ANY($1::int[]) ORDER BY u.id FOR UPDATE OF u`,
  /**
   * $1…$12 one array per column of the sends, $13 the time, $14…$16 the retry policy's per-send answers
   * (attempt, retry time, failed for good). Answers the accounts' and numbers' rows after.
   */
  record: `WITH r AS (
      SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::int[], $6::int[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::int[], $12::bigint[], $14::int[], $15::bigint[], $16::int[])
        WITH ORDINALITY AS r(whatsapp_id, user_id, phone_number_id, number, template_id, success, error_code, income, wa_message_id, delivery_status, referrer_id, credit, attempt, retry_at, failed, ord)
    ), ids AS (
      SELECT s.*, nextval(pg_get_serial_sequence('message_logs', 'id')) AS log_id FROM (SELECT * FROM r ORDER BY ord) s
    ), logs AS (
      INSERT INTO message_logs (id, whatsapp_id, user_id, phone_number_id, number, template_id, success, error_code, income, created_at, wa_message_id, delivery_status, status_at)
      SELECT log_id, whatsapp_id, user_id, phone_number_id, number, template_id, success, error_code, income, $13, wa_message_id, delivery_status,
        CASE WHEN delivery_status IS NULL THEN NULL ELSE $13::bigint END
      FROM ids ORDER BY ord
    ), credits AS (
      INSERT INTO referral_credits (referrer_id, referred_id, message_log_id, amount, created_at)
      SELECT referrer_id, user_id, log_id, credit, $13 FROM ids WHERE credit > 0 ORDER BY ord
    ), acc AS (
      UPDATE whatsapps w SET count_success = w.count_success + s.ok, count_fail = w.count_fail + s.bad, income = w.income + s.income, updated_at = $13
      FROM (SELECT whatsapp_id, sum(success)::int AS ok, sum(1 - success)::int AS bad, sum(income) AS income FROM r GROUP BY whatsapp_id) s
      WHERE w.id = s.whatsapp_id RETURNING w.*
    ), mem AS (
      UPDATE users u SET total_success = u.total_success + s.ok, total_fail = u.total_fail + s.bad, income = u.income + s.income
      FROM (SELECT user_id, sum(success)::int AS ok, sum(1 - success)::int AS bad, sum(income) AS income FROM r GROUP BY user_id) s
      WHERE u.id = s.user_id
    ), tgt AS (
      UPDATE phone_numbers p SET count_success = p.count_success + s.ok, count_fail = p.count_fail + s.bad,
        last_sent = CASE WHEN s.retry_at IS NULL THEN $13 ELSE p.last_sent END, in_use = 0, claimed_by = NULL,
        send_attempts = s.attempt, next_attempt_at = s.retry_at, last_error = coalesce(s.error_code, p.last_error),
        last_failed_at = CASE WHEN s.bad > 0 THEN $13 ELSE p.last_failed_at END,
        failed_at = CASE WHEN s.failed > 0 THEN $13 ELSE p.failed_at END,
        status = CASE WHEN s.failed > 0 THEN 'nonactive' ELSE p.status END
      FROM (SELECT phone_number_id, sum(success)::int AS ok, sum(1 - success)::int AS bad, max(attempt) AS attempt, max(retry_at) AS retry_at,
          max(failed) AS failed, max(error_code) AS error_code FROM r GROUP BY phone_number_id) s
      WHERE p.id = s.phone_number_id RETURNING p.${TARGET_COLUMNS.split(', ').join(', p.')}
    ), tpl_locked AS (
      SELECT t.id FROM message_templates t WHERE t.id IN (SELECT template_id FROM r) ORDER BY t.id FOR UPDATE
    ), tpl AS (
      UPDATE message_templates t SET count_use = t.count_use + s.n
      FROM (SELECT template_id, count(*)::int AS n FROM r GROUP BY template_id) s JOIN tpl_locked l ON l.id = s.template_id
      WHERE t.id = s.template_id
    )
    SELECT 'a' AS kind, to_jsonb(acc) AS row FROM acc UNION ALL SELECT 't', to_jsonb(tgt) FROM tgt`,
  release: `UPDATE phone_numbers SET in_use = 0, claimed_by = NULL WHERE id = ANY($1::int[]) RETURNING ${TARGET_COLUMNS}`,
  claim: CLAIM_TARGETS,
} as const;

type Runner = Pick<pg.PoolClient, 'query'>;

async function q<R extends pg.QueryResultRow>(c: Runner, name: keyof typeof TICK_SQL, values: unknown[]): Promise<R[]> {
  return (await c.query<R>({ name: `tick_${name}`, text: TICK_SQL[name], values })).rows;
}

type MemberRow = RawMember & { id: number; referrer_is_member: boolean };

/** What the rules decided for one send before it is written. */
interface Priced {
  income: number;
  member: RawMember | undefined;
  referrerId: number | null;
  credit: number;
}

/** Fee and referral of every send, in `order`, each on its member's row as the sends before it left it. */
function price(work: TickWork, order: number[], members: Map<number, MemberRow>): Priced[] {
  const priced: Priced[] = new Array(work.records.length);
  for (const i of order) {
    const r = work.records[i]!;
    const row = members.get(r.userId);
    const member: RawMember | undefined = row && { blast_fee: row.blast_fee, total_success: row.total_success, blast_interval_min: row.blast_interval_min, blast_interval_max: row.blast_interval_max, referred_by: row.referred_by };
    const income = r.success && member && !r.payOnDelivery ? work.rules.fee(member) : 0;
    let referrerId: number | null = null;
    let credit = 0;
    const referrer = member?.referred_by ?? null;
    if (income > 0 && referrer !== null && referrer !== r.userId && row!.referrer_is_member) {
      const amount = work.rules.referral(income);
      if (amount > 0) {
        referrerId = referrer;
        credit = amount;
      }
    }
    if (row && r.success) row.total_success += 1;
    priced[i] = { income, member, referrerId, credit };
  }
  return priced;
}

/**
 * The rows each send left behind: the statement answers each account's and number's row after all of
 * the tick's sends; a send before another of the same account (or number) gets the row without the later ones.
 */
function rowsAfterEach<T extends { id: number; count_success: number; count_fail: number }>(
  order: number[],
  finals: Map<number, T>,
  keyOf: (i: number) => number,
  undo: (row: T, i: number) => void,
): Array<T | null> {
  const rows: Array<T | null> = [];
  const working = new Map<number, T>();
  for (let k = order.length - 1; k >= 0; k -= 1) {
    const i = order[k]!;
    const key = keyOf(i);
    const final = finals.get(key);
    if (!final) {
      rows[i] = null;
      continue;
    }
    const row = working.get(key) ?? { ...final };
    rows[i] = { ...row };
    undo(row, i);
    working.set(key, row);
  }
  return rows;
}

async function record(c: Runner, work: TickWork, order: number[], priced: Priced[]): Promise<RecordedSend[]> {
  const rs = order.map((i) => work.records[i]!);
  const ps = order.map((i) => priced[i]!);
  // An accepted send whose delivery the gateway reports later (Cloud API webhooks, the simulator's statuses).
  const accepted = (r: SendRecord) => r.success && !!r.messageId;
  const answer = await q<{ kind: 'a' | 't'; row: RawAccount | RawTarget }>(c, 'record', [
    rs.map((r) => r.accountId),
    rs.map((r) => r.userId),
    rs.map((r) => r.target.id),
    rs.map((r) => r.target.number),
    rs.map((r) => r.templateId),
    rs.map((r) => (r.success ? 1 : 0)),
    rs.map((r) => r.errorCode),
    ps.map((p) => p.income),
    rs.map((r) => r.messageId ?? null),
    rs.map((r) => (accepted(r) ? 'sent' : null)),
    ps.map((p) => p.referrerId),
    ps.map((p) => p.credit),
    work.now,
    rs.map((r) => targetOutcome(r).attempt),
    rs.map((r) => targetOutcome(r).retryAt),
    rs.map((r) => targetOutcome(r).failed),
  ]);
  const accounts = new Map<number, RawAccount>();
  const targets = new Map<number, RawTarget>();
  for (const { kind, row } of answer) {
    if (kind === 'a') accounts.set(row.id, row as RawAccount);
    else targets.set(row.id, row as RawTarget);
  }
  const ok = (i: number) => (work.records[i]!.success ? 1 : 0);
  const accountRows = rowsAfterEach(order, accounts, (i) => work.records[i]!.accountId, (row, i) => {
    row.count_success -= ok(i);
    row.count_fail -= 1 - ok(i);
    row.income -= priced[i]!.income;
  });
  const targetRows = rowsAfterEach(order, targets, (i) => work.records[i]!.target.id, (row, i) => {
    row.count_success -= ok(i);
    row.count_fail -= 1 - ok(i);
  });
  const recorded: RecordedSend[] = new Array(work.records.length);
  // The intervals are drawn in the order the sends were priced, as the per-send store drew them.
  for (const i of order) {
    const account = accountRows[i] ?? null;
    const { income, member, referrerId } = priced[i]!;
    const interval = account ? work.rules.interval(account, member) : 0;
    recorded[i] = { account, target: targetRows[i] ?? null, income, interval, referrerId, next: null };
  }
  return recorded;
}

/** Claims one target for each account in `accounts` (in that order; an account may be short of one). */
export async function claimTargets(c: Runner, accounts: number[], cutoff: number, now: number, window: WindowFilter): Promise<Array<ClaimedTarget | null>> {
  if (accounts.length === 0) return [];
  const rows = await q<{ ord: string | number; id: number; number: string; name: string; attempt: number }>(c, 'claim', [accounts, cutoff, now, window.codes, window.match]);
  const out: Array<ClaimedTarget | null> = accounts.map(() => null);
  for (const r of rows) out[Number(r.ord) - 1] = { id: r.id, number: r.number, name: r.name, attempt: Number(r.attempt) };
  return out;
}

/** One tick in the transaction open on `c` (the caller begins, commits and retries). */
export async function tickStatements(c: Runner, work: TickWork): Promise<TickDone> {
  const done: TickDone = { records: [], releases: [], claims: [] };
  // Members in id order, then the sends of each member in the order asked (see TICK_SQL.members).
  const order = work.records.map((_, i) => i).sort((a, b) => work.records[a]!.userId - work.records[b]!.userId || a - b);
  if (work.records.length > 0) {
    const memberIds = [...new Set(work.records.map((r) => r.userId))].sort((a, b) => a - b);
    const rows = await q<MemberRow>(c, 'members', [memberIds]);
    const members = new Map(rows.map((m) => [m.id, m]));
    done.records = await record(c, work, order, price(work, order, members));
  }
  if (work.releases.length > 0) {
    const rows = await q<RawTarget>(c, 'release', [work.releases]);
    const byId = new Map(rows.map((t) => [t.id, t]));
    done.releases = work.releases.map((id) => byId.get(id) ?? null);
  }
  // Claims with a record first (in the records' order), then the accounts that asked on their own.
  const withRecord = done.records.map((rec, i) => (rec.account && rec.interval === 0 && work.records[i]!.claimNext ? i : -1)).filter((i) => i >= 0);
  const claimed = await claimTargets(c, [...withRecord.map((i) => done.records[i]!.account!.id), ...work.claims], work.cutoff, work.now, work.window);
  withRecord.forEach((i, k) => (done.records[i]!.next = claimed[k] ?? null));
  done.claims = claimed.slice(withRecord.length);
  return done;
}
