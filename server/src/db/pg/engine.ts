import type pg from 'pg';
import type { Db } from '../client';
import type {
  ClaimedTarget,
  EngineStore,
  RawAccount,
  RawMember,
  RawTarget,
  RecordedSend,
  RuleRows,
  SendRecord,
  TickDone,
  TickWork,
} from '../../engine/store';

/**
 * The blast engine's store on PostgreSQL: one transaction per tick on one pooled connection, with named
 * (server-side prepared) statements. A claim takes its target with `FOR UPDATE SKIP LOCKED`, so nodes
 * claiming at the same moment each get a different number and never wait for each other. A tick that
 * loses a deadlock is run again (the rules it applies are pure).
 */

const TARGET_COLUMNS = 'id, number, name, status, in_use, count_success, count_fail, last_sent';
const NOT_OPTED_OUT = 'NOT EXISTS (SELECT 1 FROM opt_outs o WHERE o.number = p.number)';

/** Every statement of the engine's store, by name (bench/floor.ts runs the same text bare). */
export const PG_ENGINE_SQL = {
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
  account: 'SELECT * FROM whatsapps WHERE id = $1',
  addToAccount: `UPDATE whatsapps SET count_success = count_success + $2, count_fail = count_fail + $3,
      income = income + $4, updated_at = $5 WHERE id = $1 RETURNING *`,
  setStatus: 'UPDATE whatsapps SET status = $2, updated_at = $3 WHERE id = $1 RETURNING *',
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
  settings: 'SELECT interval_min, interval_max, price, referral_percent, recipient_cooldown_hours FROM settings WHERE id = 1',
  levels: 'SELECT blast_fee, requirement_blast FROM levels ORDER BY requirement_blast, id',
  templates: "SELECT id, media, text, text_wa, button, count_use, wa_template_name, wa_template_language, wa_template_params FROM message_templates WHERE status = 'active' ORDER BY count_use, id",
  optedOut: 'SELECT 1 AS n FROM opt_outs WHERE number = $1 LIMIT 1',
  targetByNumber: `SELECT ${TARGET_COLUMNS} FROM phone_numbers WHERE number = $1`,
  // Only claims of accounts no live node holds: another node's claims in flight are its own business.
  releaseAbandoned: `UPDATE phone_numbers p SET in_use = 0, claimed_by = NULL, last_sent = greatest(coalesce(p.last_sent, 0), $1)
      WHERE p.status IN ('active', 'nonactive') AND p.in_use = 1
        AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.kind = 'account' AND l.work_id = p.claimed_by AND l.expires_at >= $1)
      RETURNING ${TARGET_COLUMNS}`,
  sendingAccounts: "SELECT * FROM whatsapps WHERE status = 'sending' AND id > $1 ORDER BY id LIMIT $2",
} as const;
const Q = PG_ENGINE_SQL;

type Name = keyof typeof Q;
type Runner = Pick<pg.PoolClient, 'query'> | pg.Pool;

async function q<R extends pg.QueryResultRow>(c: Runner, name: Name, values: unknown[] = []): Promise<R[]> {
  const res = await c.query<R>({ name: `engine_${name}`, text: Q[name], values });
  return res.rows;
}

const RETRY = new Set(['40001', '40P01']);

async function claim(c: Runner, accountId: number, cutoff: number): Promise<ClaimedTarget | null> {
  const fresh = await q<ClaimedTarget>(c, 'claimFresh', [accountId]);
  if (fresh[0]) return fresh[0];
  const cooled = await q<ClaimedTarget>(c, 'claimCooled', [accountId, cutoff]);
  return cooled[0] ?? null;
}

async function recordOne(c: Runner, work: TickWork, r: SendRecord): Promise<RecordedSend> {
  const { now } = work;
  const [member] = await q<RawMember>(c, 'member', [r.userId]);
  const income = r.success && member && !r.payOnDelivery ? work.rules.fee(member) : 0;
  const success = r.success ? 1 : 0;
  const fail = r.success ? 0 : 1;
  const accepted = r.payOnDelivery === true && r.success;
  const [log] = await q<{ id: number }>(c, 'insertLog', [
    r.accountId,
    r.userId,
    r.target.id,
    r.target.number,
    r.templateId,
    success,
    r.errorCode,
    income,
    now,
    r.messageId ?? null,
    accepted ? 'sent' : null,
    accepted ? now : null,
  ]);
  const [account] = await q<RawAccount>(c, 'addToAccount', [r.accountId, success, fail, income, now]);
  await q(c, 'addToMember', [r.userId, success, fail, income]);
  const [target] = await q<RawTarget>(c, 'markSent', [r.target.id, success, fail, now]);
  await q(c, 'useTemplate', [r.templateId]);
  let referrerId: number | null = null;
  const referrer = member?.referred_by ?? null;
  if (income > 0 && referrer !== null && referrer !== r.userId) {
    const amount = work.rules.referral(income);
    if (amount > 0 && (await q(c, 'referrerIsMember', [referrer])).length > 0) {
      await q(c, 'insertCredit', [referrer, r.userId, log!.id, amount, now]);
      referrerId = referrer;
    }
  }
  const interval = account ? work.rules.interval(account, member) : 0;
  return { account: account ?? null, target: target ?? null, income, interval, referrerId, next: null };
}

async function tickOnce(c: pg.PoolClient, work: TickWork): Promise<TickDone> {
  const done: TickDone = { records: [], releases: [], claims: [] };
  await c.query('BEGIN');
  try {
    // Every member this tick pays is locked first, in id order: a record then takes the shared rows (the
    // sent-slot and list figures its trigger updates, the template's use count) only while holding all of
    // its tick's members, so two nodes' ticks queue instead of deadlocking on each other's members.
    const members = [...new Set(work.records.map((r) => r.userId))].sort((a, b) => a - b);
    if (members.length > 0) await q(c, 'lockMembers', [members]);
    const order = work.records.map((r, i) => i).sort((a, b) => work.records[a]!.userId - work.records[b]!.userId || a - b);
    const recorded: RecordedSend[] = new Array(work.records.length);
    for (const i of order) recorded[i] = await recordOne(c, work, work.records[i]!);
    done.records = recorded;
    for (const id of work.releases) done.releases.push((await q<RawTarget>(c, 'release', [id]))[0] ?? null);
    for (let i = 0; i < done.records.length; i += 1) {
      const rec = done.records[i]!;
      if (rec.account && rec.interval === 0 && work.records[i]!.claimNext) rec.next = await claim(c, rec.account.id, work.cutoff);
    }
    for (const accountId of work.claims) done.claims.push(await claim(c, accountId, work.cutoff));
    await c.query('COMMIT');
    return done;
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** The engine store on a PostgreSQL database. */
export function postgresEngineStore(db: Db): EngineStore {
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  const ended = () => (pool as unknown as { ended?: boolean }).ended === true;
  return {
    async rules(): Promise<RuleRows> {
      const [settings, levels, templates] = await Promise.all([q(pool, 'settings'), q(pool, 'levels'), q(pool, 'templates')]);
      return { settings: (settings[0] as RuleRows['settings']) ?? null, levels: levels as RuleRows['levels'], templates: templates as RuleRows['templates'] };
    },
    async tick(work) {
      const c = await pool.connect();
      try {
        for (let attempt = 1; ; attempt += 1) {
          try {
            return await tickOnce(c, work);
          } catch (err) {
            const code = (err as { code?: string }).code;
            if (!code || !RETRY.has(code) || attempt >= 5) throw err;
          }
        }
      } finally {
        c.release();
      }
    },
    account: async (id) => (await q<RawAccount>(pool, 'account', [id]))[0],
    setStatus: async (id, status, now) => (ended() ? undefined : (await q<RawAccount>(pool, 'setStatus', [id, status, now]))[0]),
    isOptedOut: async (number) => (await q(pool, 'optedOut', [number])).length > 0,
    targetByNumber: async (number) => (await q<RawTarget>(pool, 'targetByNumber', [number]))[0],
    releaseAbandoned: async (now) => q<RawTarget>(pool, 'releaseAbandoned', [now]),
    sendingAccounts: async (after, limit) => q<RawAccount>(pool, 'sendingAccounts', [after, limit]),
    isOpen: () => !ended(),
  };
}
