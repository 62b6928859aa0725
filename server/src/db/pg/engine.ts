import type pg from 'pg';
import type { Db } from '../client';
import type { EngineStore, RawAccount, RawTarget, RuleRows, TickDone, TickWork } from '../../engine/store';
import { TARGET_COLUMNS, TICK_BEGIN, tickStatements } from './tick';

/**
 * The blast engine's store on PostgreSQL: one transaction per tick on one pooled connection, a fixed
 * handful of named (server-side prepared) set-based statements whatever the tick holds (./tick). Claims
 * take their targets with `FOR UPDATE SKIP LOCKED`, so nodes claiming at the same moment each get
 * different numbers and never wait for each other. A tick that loses a deadlock is run again (the rules
 * it applies are pure).
 */

/** The store's statements outside the tick (the tick's are in ./tick), by name. */
export const PG_ENGINE_SQL = {
  account: 'SELECT * FROM whatsapps WHERE id = $1',
  setStatus: 'UPDATE whatsapps SET status = $2, updated_at = $3 WHERE id = $1 RETURNING *',
  settings: 'SELECT interval_min, interval_max, price, referral_percent, recipient_cooldown_hours, max_attempts, send_from, send_to, time_zone FROM settings WHERE id = 1',
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
  nextRetryAt: `SELECT min(next_attempt_at) AS at FROM phone_numbers
      WHERE next_attempt_at IS NOT NULL AND next_attempt_at > $1 AND status = 'active' AND in_use = 0`,
  waitingPrefixes: `SELECT DISTINCT left(p.number, 3) AS prefix FROM phone_numbers p
      WHERE p.status = 'active' AND p.in_use = 0 AND (p.last_sent IS NULL OR p.last_sent <= $1)
        AND NOT EXISTS (SELECT 1 FROM opt_outs o WHERE o.number = p.number)`,
} as const;
const Q = PG_ENGINE_SQL;

type Name = keyof typeof Q;
type Runner = Pick<pg.PoolClient, 'query'> | pg.Pool;

async function q<R extends pg.QueryResultRow>(c: Runner, name: Name, values: unknown[] = []): Promise<R[]> {
  const res = await c.query<R>({ name: `engine_${name}`, text: Q[name], values });
  return res.rows;
}

/** Serialization failure, deadlock: the tick is run again (its rules are pure). */
const RETRY = new Set(['40001', '40P01']);
const ATTEMPTS = 5;

/** Ticks run again after losing a deadlock (or a serialization race) since the start, for the benches and the monitor. */
export const tickRetries = { count: 0 };

async function tickOnce(c: pg.PoolClient, work: TickWork): Promise<TickDone> {
  await c.query(TICK_BEGIN);
  try {
    const done = await tickStatements(c, work);
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
            if (!code || !RETRY.has(code) || attempt >= ATTEMPTS) throw err;
            tickRetries.count += 1;
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
    nextRetryAt: async (now) => {
      const at = (await q<{ at: string | number | null }>(pool, 'nextRetryAt', [now]))[0]?.at ?? null;
      return at === null ? null : Number(at);
    },
    waitingPrefixes: async (cutoff) => (await q<{ prefix: string }>(pool, 'waitingPrefixes', [cutoff])).map((r) => r.prefix),
    isOpen: () => !ended(),
  };
}
