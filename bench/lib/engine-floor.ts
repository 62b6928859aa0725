/**
 * The engine's floor for bench/floor.ts: the engine stores' own statements (SQLITE_ENGINE_SQL,
 * PG_ENGINE_SQL) run bare, one transaction per tick holding one message of every account.
 */
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { feeOn, type RuleSnapshot } from '../../server/src/engine/snapshot';
import { referralAmount } from '../../server/src/money/referral';
import type { RawMember } from '../../server/src/engine/store';
import { SQLITE_ENGINE_SQL } from '../../server/src/db/sqlite/engine';
import { PG_ENGINE_SQL } from '../../server/src/db/pg/engine';
import { TICK_BEGIN, tickStatements } from '../../server/src/db/pg/tick';
import { READ_SHARE } from '../../server/src/gateway/simulator/simulator';
import type { SendRules, TickWork } from '../../server/src/engine/store';

const NOT_OPTED_OUT = 'NOT EXISTS (SELECT 1 FROM opt_outs o WHERE o.number = p.number)';
const TARGET_COLUMNS = 'id, number, name, status, in_use, count_success, count_fail, last_sent';

/**
 * The PostgreSQL engine's statements before its tick was set-based: about ten per message, each awaited
 * in turn. The per-message floor runs them to show what that shape costs beside the set-based one.
 */
const PER_MESSAGE_SQL = {
  ...PG_ENGINE_SQL,
  claimFresh: `UPDATE phone_numbers SET in_use = 1, claimed_by = $1 WHERE id = (
      SELECT p.id FROM phone_numbers p
      WHERE p.status = 'active' AND p.in_use = 0 AND p.last_sent IS NULL AND ${NOT_OPTED_OUT}
      ORDER BY p.id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, number, name`,
  claimCooled: `UPDATE phone_numbers SET in_use = 1, claimed_by = $1 WHERE id = (
      SELECT p.id FROM phone_numbers p
      WHERE p.status = 'active' AND p.in_use = 0 AND p.last_sent <= $2 AND ${NOT_OPTED_OUT}
      ORDER BY p.last_sent, p.id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, number, name`,
  release: `UPDATE phone_numbers SET in_use = 0, claimed_by = NULL WHERE id = $1 RETURNING ${TARGET_COLUMNS}`,
  markSent: `UPDATE phone_numbers SET count_success = count_success + $2, count_fail = count_fail + $3,
      last_sent = $4, in_use = 0, claimed_by = NULL WHERE id = $1 RETURNING ${TARGET_COLUMNS}`,
  member: 'SELECT blast_fee, total_success, blast_interval_min, blast_interval_max, referred_by FROM users WHERE id = $1',
  addToAccount: `UPDATE whatsapps SET count_success = count_success + $2, count_fail = count_fail + $3,
      income = income + $4, updated_at = $5 WHERE id = $1 RETURNING *`,
  addToMember: `UPDATE users SET total_success = total_success + $2, total_fail = total_fail + $3,
      income = income + $4 WHERE id = $1`,
  insertLog: `INSERT INTO message_logs (whatsapp_id, user_id, phone_number_id, number, template_id, success, error_code, income, created_at,
      wa_message_id, delivery_status, status_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
  useTemplate: 'UPDATE message_templates SET count_use = count_use + 1 WHERE id = $1',
  referrerIsMember: "SELECT id FROM users WHERE id = $1 AND role = 'member'",
  lockMembers: 'SELECT id FROM users WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE',
  insertCredit: `INSERT INTO referral_credits (referrer_id, referred_id, message_log_id, amount, created_at)
      VALUES ($1, $2, $3, $4, $5)`,
} as const;

/** The SQLite statements the floor runs per tick. */
const FLOOR_STATEMENTS = ['settings', 'levels', 'templates', 'claim', 'release', 'member', 'insertLog', 'addToAccount', 'addToMember', 'markSent', 'useTemplate', 'referrerIsMember', 'insertCredit'] as const;

export interface Claimed {
  id: number;
  number: string;
  name: string;
}

export interface FloorAccount {
  id: number;
  userId: number;
  target: Claimed | null;
}

/** One tick's work for the floor: the rule rows, then one transaction recording and claiming for every account. */
export interface FloorDb {
  rules(): Promise<RuleSnapshot>;
  tick(now: number, cutoff: number, snap: RuleSnapshot, accounts: FloorAccount[], template: number): Promise<number>;
  claimAll(accounts: FloorAccount[], cutoff: number): Promise<void>;
  releaseAll(accounts: FloorAccount[]): Promise<void>;
  close(): Promise<void>;
}

export function sqliteFloor(sqlite: Database.Database): FloorDb {
  const prep = (source: string) => sqlite.prepare(source);
  const st = Object.fromEntries(FLOOR_STATEMENTS.map((name) => [name, prep(SQLITE_ENGINE_SQL[name])])) as Record<(typeof FLOOR_STATEMENTS)[number], Database.Statement>;
  const txn = sqlite.transaction((fn: () => void) => fn());
  const claim = (accountId: number, cutoff: number) => (st.claim.get({ accountId, cutoff, now: Date.now(), codes: '[]', match: 0 }) as Claimed | undefined) ?? null;
  return {
    rules: async () => ({
      settings: st.settings.get() as RuleSnapshot['settings'],
      levels: st.levels.all() as RuleSnapshot['levels'],
      templates: st.templates.all() as RuleSnapshot['templates'],
    }),
    async tick(now, cutoff, snap, accounts, template) {
      let n = 0;
      txn.immediate(() => {
        for (const a of accounts) {
          if (!a.target) continue;
          const member = st.member.get(a.userId) as RawMember | undefined;
          const income = member ? feeOn(snap, member) : 0;
          const log = st.insertLog.run({
            whatsappId: a.id,
            userId: a.userId,
            phoneNumberId: a.target.id,
            number: a.target.number,
            templateId: template,
            success: 1,
            errorCode: null,
            income,
            waMessageId: null,
            deliveryStatus: null,
            statusAt: null,
            now,
          });
          st.addToAccount.get({ id: a.id, success: 1, fail: 0, income, now });
          st.addToMember.run({ id: a.userId, success: 1, fail: 0, income });
          st.markSent.get({ id: a.target.id, success: 1, fail: 0, now, attempt: 1, retryAt: null, failed: 0, errorCode: null });
          st.useTemplate.run(template);
          const referrer = member?.referred_by ?? null;
          const amount = referralAmount(income, snap.settings.referral_percent);
          if (income > 0 && referrer !== null && referrer !== a.userId && amount > 0 && st.referrerIsMember.get(referrer)) {
            st.insertCredit.run({ referrerId: referrer, referredId: a.userId, messageLogId: Number(log.lastInsertRowid), amount, now });
          }
          n += 1;
        }
        for (const a of accounts) if (a.target) a.target = claim(a.id, cutoff);
      });
      return n;
    },
    async claimAll(accounts, cutoff) {
      txn.immediate(() => {
        for (const a of accounts) a.target = claim(a.id, cutoff);
      });
    },
    async releaseAll(accounts) {
      txn.immediate(() => {
        for (const a of accounts) if (a.target) st.release.get(a.target.id);
      });
    },
    close: async () => undefined,
  };
}

export async function postgresFloor(pool: pg.Pool): Promise<FloorDb> {
  const c = await pool.connect();
  const q = async <R extends pg.QueryResultRow>(runner: Pick<pg.PoolClient, 'query'>, name: keyof typeof PER_MESSAGE_SQL, values: unknown[] = []): Promise<R[]> =>
    (await runner.query<R>({ name: `floor_${name}`, text: PER_MESSAGE_SQL[name], values })).rows;
  const claim = async (accountId: number, cutoff: number): Promise<Claimed | null> =>
    (await q<Claimed>(c, 'claimFresh', [accountId]))[0] ?? (await q<Claimed>(c, 'claimCooled', [accountId, cutoff]))[0] ?? null;
  const inTransaction = async (fn: () => Promise<void>) => {
    await c.query('BEGIN');
    try {
      await fn();
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK');
      throw err;
    }
  };
  return {
    async rules() {
      const [s, l, t] = await Promise.all([q(pool, 'settings'), q(pool, 'levels'), q(pool, 'templates')]);
      return { settings: s[0] as RuleSnapshot['settings'], levels: l as RuleSnapshot['levels'], templates: t as RuleSnapshot['templates'] };
    },
    async tick(now, cutoff, snap, accounts, template) {
      let n = 0;
      await inTransaction(async () => {
        const sending = accounts.filter((a) => a.target).sort((x, y) => x.userId - y.userId || x.id - y.id);
        const members = [...new Set(sending.map((a) => a.userId))].sort((x, y) => x - y);
        if (members.length) await q(c, 'lockMembers', [members]);
        for (const a of sending) {
          const target = a.target!;
          const [member] = await q<RawMember>(c, 'member', [a.userId]);
          const income = member ? feeOn(snap, member) : 0;
          const [log] = await q<{ id: number }>(c, 'insertLog', [a.id, a.userId, target.id, target.number, template, 1, null, income, now, null, null, null]);
          await q(c, 'addToAccount', [a.id, 1, 0, income, now]);
          await q(c, 'addToMember', [a.userId, 1, 0, income]);
          await q(c, 'markSent', [target.id, 1, 0, now]);
          await q(c, 'useTemplate', [template]);
          const referrer = member?.referred_by ?? null;
          const amount = referralAmount(income, snap.settings.referral_percent);
          if (income > 0 && referrer !== null && referrer !== a.userId && amount > 0 && (await q(c, 'referrerIsMember', [referrer])).length > 0) {
            await q(c, 'insertCredit', [referrer, a.userId, log!.id, amount, now]);
          }
          n += 1;
        }
        for (const a of accounts) if (a.target) a.target = await claim(a.id, cutoff);
      });
      return n;
    },
    async claimAll(accounts, cutoff) {
      await inTransaction(async () => {
        for (const a of accounts) a.target = await claim(a.id, cutoff);
      });
    },
    async releaseAll(accounts) {
      await inTransaction(async () => {
        for (const a of accounts) if (a.target) await q(c, 'release', [a.target.id]);
      });
    },
    close: async () => c.release(),
  };
}

/**
 * The set-based floor: the engine store's own tick statements (server/src/db/pg/tick.ts) run bare, one
 * transaction per tick recording one message of every account and claiming each its next target, with
 * the same rules (fee by level, referral) and nothing sent: the fewest statements those rows take.
 */
/**
 * The set-based floor. With `reports`, each send is an accepted one (a message id, 'sent') and the floor
 * also writes what the simulator's delivery reports write, the fewest ways it can: every tick's
 * transaction moves the previous tick's rows to 'delivered' and READ_SHARE of the rows of the tick
 * before that to 'read', in one UPDATE (the engine gets these reports after each send commits, so they
 * cannot be written with the send itself). The rows written are then those of the engine's run: the log
 * rows with their delivery status and time, the counters, and the day figures the triggers keep.
 */
export async function postgresSetFloor(pool: pg.Pool, options: { reports?: boolean } = {}): Promise<FloorDb> {
  const c = await pool.connect();
  let sent = 0;
  // Message ids of the last two ticks, newest first.
  let previous: string[] = [];
  let older: string[] = [];
  const applyReports = async (now: number) => {
    const ids = [...previous, ...older.filter((_, i) => i % 5 < READ_SHARE * 5)];
    const statuses = [...previous.map(() => 'delivered'), ...older.filter((_, i) => i % 5 < READ_SHARE * 5).map(() => 'read')];
    if (!ids.length) return;
    const moved = await c.query(
      `UPDATE message_logs m SET delivery_status = v.status, status_at = $3
       FROM unnest($1::text[], $2::text[]) AS v(mid, status)
       WHERE m.wa_message_id = v.mid AND (m.delivery_status = 'sent' OR (v.status = 'read' AND m.delivery_status = 'delivered'))`,
      [ids, statuses, now],
    );
    if (moved.rowCount !== ids.length) throw new Error(`the floor's reports moved ${moved.rowCount} of ${ids.length} rows`);
  };
  const rulesOf = (snap: RuleSnapshot): SendRules => ({
    fee: (member) => feeOn(snap, member),
    referral: (income) => referralAmount(income, snap.settings.referral_percent),
    interval: () => 0,
  });
  const inTransaction = async <T>(fn: () => Promise<T>): Promise<T> => {
    await c.query(TICK_BEGIN);
    try {
      const out = await fn();
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK');
      throw err;
    }
  };
  // The floor measures the claim with its send window always open.
  const run = (work: Omit<TickWork, 'rules' | 'window'>, snap: RuleSnapshot) => inTransaction(() => tickStatements(c, { ...work, window: { codes: [], match: false }, rules: rulesOf(snap) }));
  const base = await postgresFloor(pool);
  return {
    rules: base.rules,
    async tick(now, cutoff, snap, accounts, template) {
      const sending = accounts.filter((a) => a.target);
      const ids = options.reports ? sending.map(() => `floor-${process.pid}-${++sent}`) : [];
      const work = {
        now,
        cutoff,
        records: sending.map((a, i) => ({ accountId: a.id, userId: a.userId, target: a.target!, templateId: template, success: true, errorCode: null, claimNext: true, messageId: ids[i] ?? null })),
        releases: [],
        claims: [],
      };
      const done = options.reports
        ? await inTransaction(async () => {
            await applyReports(now);
            return tickStatements(c, { ...work, window: { codes: [], match: false }, rules: rulesOf(snap) });
          })
        : await run(work, snap);
      if (options.reports) [older, previous] = [previous, ids];
      sending.forEach((a, i) => (a.target = done.records[i]!.next));
      return sending.length;
    },
    async claimAll(accounts, cutoff) {
      const snap = await base.rules();
      const done = await run({ now: Date.now(), cutoff, records: [], releases: [], claims: accounts.map((a) => a.id) }, snap);
      accounts.forEach((a, i) => (a.target = done.claims[i] ?? null));
    },
    async releaseAll(accounts) {
      const snap = await base.rules();
      await run({ now: Date.now(), cutoff: 0, records: [], releases: accounts.filter((a) => a.target).map((a) => a.target!.id), claims: [] }, snap);
    },
    close: async () => {
      c.release();
      await base.close();
    },
  };
}
