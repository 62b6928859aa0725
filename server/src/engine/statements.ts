import type Database from 'better-sqlite3';
import type { Db } from '../db/client';

/** A target as a claim returns it. */
export interface ClaimedTarget {
  id: number;
  number: string;
  name: string;
}

/** The account row as raw SQLite returns it (snake_case, integers for booleans and times). */
export interface RawAccount {
  id: number;
  device_id: string;
  clientid: string;
  pushname: string | null;
  phonenumber: string | null;
  server: string | null;
  serialized: string | null;
  proxy_id: number | null;
  user_id: number;
  state: string | null;
  status: 'idle' | 'sending';
  interval: number | null;
  own_interval: number;
  count_success: number;
  count_fail: number;
  income: number;
  suspended: number;
  suspended_count: number;
  reconnect_count: number;
  created_at: number;
  updated_at: number | null;
}

export interface RawTarget {
  id: number;
  number: string;
  name: string;
  status: 'active' | 'nonactive';
  in_use: number;
  count_success: number;
  count_fail: number;
  last_sent: number | null;
}

export interface RawMember {
  blast_fee: number | null;
  total_success: number;
  blast_interval_min: number | null;
  blast_interval_max: number | null;
  referred_by: number | null;
}

export interface RawTemplate {
  id: number;
  media: string | null;
  text: string;
  text_wa: string;
  button: string;
  count_use: number;
}

export interface RawLevel {
  blast_fee: number;
  requirement_blast: number;
}

export interface RawSettings {
  interval_min: number;
  interval_max: number;
  price: number;
  referral_percent: number;
  recipient_cooldown_hours: number;
}

const TARGET_COLUMNS = 'id, number, name, status, in_use, count_success, count_fail, last_sent';

/**
 * A target is eligible when it is active, not claimed, not on the suppression list and not
 * messaged since the cooldown cut-off. Never-sent numbers come first, then the oldest last_sent;
 * each half is one seek on phone_numbers_target_idx (status, in_use, last_sent).
 */
const NOT_OPTED_OUT = 'NOT EXISTS (SELECT 1 FROM opt_outs o WHERE o.number = p.number)';
const CLAIM_SQL = `
  UPDATE phone_numbers SET in_use = 1, claimed_by = @accountId
  WHERE id = coalesce(
    (SELECT p.id FROM phone_numbers p INDEXED BY phone_numbers_target_idx
      WHERE p.status = 'active' AND p.in_use = 0 AND p.last_sent IS NULL AND ${NOT_OPTED_OUT}
      ORDER BY p.last_sent, p.id LIMIT 1),
    (SELECT p.id FROM phone_numbers p INDEXED BY phone_numbers_target_idx
      WHERE p.status = 'active' AND p.in_use = 0 AND p.last_sent <= @cutoff AND ${NOT_OPTED_OUT}
      ORDER BY p.last_sent LIMIT 1))
  RETURNING id, number, name`;

type Stmt<P extends unknown[] | object, R = unknown> = Database.Statement<P extends unknown[] ? P : [P], R>;

/**
 * Every statement the engine runs on its hot path, prepared once per database. Raw better-sqlite3
 * statements: the query builder's per-call SQL generation would cost more than the writes.
 */
export class EngineStatements {
  readonly sqlite: Database.Database;
  readonly claim: Stmt<{ accountId: number; cutoff: number }, ClaimedTarget>;
  readonly release: Stmt<[number], RawTarget>;
  readonly markSent: Stmt<{ id: number; success: number; fail: number; now: number }, RawTarget>;
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
    now: number;
  }>;
  readonly useTemplate: Stmt<[number]>;
  readonly userExists: Stmt<[number], { id: number }>;
  readonly insertCredit: Stmt<{ referrerId: number; referredId: number; messageLogId: number; amount: number; now: number }>;
  readonly settings: Stmt<[], RawSettings>;
  readonly levels: Stmt<[], RawLevel>;
  readonly templates: Stmt<[], RawTemplate>;
  readonly optedOut: Stmt<[string], { n: number }>;
  readonly targetByNumber: Stmt<[string], RawTarget>;
  readonly claimsHeld: Stmt<[], { id: number }>;
  readonly releaseAll: Stmt<{ now: number }, RawTarget>;
  readonly sendingAccounts: Stmt<[], RawAccount>;

  constructor(db: Db) {
    const s = db.$client;
    this.sqlite = s;
    const prep = <P extends unknown[] | object, R = unknown>(source: string): Stmt<P, R> => s.prepare<P, R>(source) as Stmt<P, R>;
    this.claim = prep(CLAIM_SQL);
    this.release = prep<[number], RawTarget>(`UPDATE phone_numbers SET in_use = 0, claimed_by = NULL WHERE id = ? RETURNING ${TARGET_COLUMNS}`);
    this.markSent = prep(
      `UPDATE phone_numbers SET count_success = count_success + @success, count_fail = count_fail + @fail,
         last_sent = @now, in_use = 0, claimed_by = NULL WHERE id = @id RETURNING ${TARGET_COLUMNS}`,
    );
    this.member = prep<[number], RawMember>(
      'SELECT blast_fee, total_success, blast_interval_min, blast_interval_max, referred_by FROM users WHERE id = ?',
    );
    this.account = prep<[number], RawAccount>('SELECT * FROM whatsapps WHERE id = ?');
    this.addToAccount = prep(
      `UPDATE whatsapps SET count_success = count_success + @success, count_fail = count_fail + @fail,
         income = income + @income, updated_at = @now WHERE id = @id RETURNING *`,
    );
    this.setStatus = prep('UPDATE whatsapps SET status = @status, updated_at = @now WHERE id = @id RETURNING *');
    this.addToMember = prep(
      `UPDATE users SET total_success = total_success + @success, total_fail = total_fail + @fail,
         income = income + @income WHERE id = @id`,
    );
    this.insertLog = prep(
      `INSERT INTO message_logs (whatsapp_id, user_id, phone_number_id, number, template_id, success, error_code, income, created_at)
       VALUES (@whatsappId, @userId, @phoneNumberId, @number, @templateId, @success, @errorCode, @income, @now)`,
    );
    this.useTemplate = prep<[number]>('UPDATE message_templates SET count_use = count_use + 1 WHERE id = ?');
    this.userExists = prep<[number], { id: number }>('SELECT id FROM users WHERE id = ?');
    this.insertCredit = prep(
      `INSERT INTO referral_credits (referrer_id, referred_id, message_log_id, amount, created_at)
       VALUES (@referrerId, @referredId, @messageLogId, @amount, @now)`,
    );
    this.settings = prep(
      'SELECT interval_min, interval_max, price, referral_percent, recipient_cooldown_hours FROM settings WHERE id = 1',
    );
    this.levels = prep('SELECT blast_fee, requirement_blast FROM levels ORDER BY requirement_blast, id');
    this.templates = prep(
      "SELECT id, media, text, text_wa, button, count_use FROM message_templates WHERE status = 'active' ORDER BY count_use, id",
    );
    this.optedOut = prep<[string], { n: number }>('SELECT count(*) AS n FROM opt_outs WHERE number = ?');
    this.targetByNumber = prep<[string], RawTarget>(`SELECT ${TARGET_COLUMNS} FROM phone_numbers WHERE number = ?`);
    this.claimsHeld = prep("SELECT id FROM phone_numbers WHERE status IN ('active', 'nonactive') AND in_use = 1");
    // A claim left by a process that died is an attempt whose outcome is unknown: it is not
    // counted, but the number is treated as messaged now so the cooldown keeps it from a duplicate.
    this.releaseAll = prep(
      `UPDATE phone_numbers SET in_use = 0, claimed_by = NULL, last_sent = max(coalesce(last_sent, 0), @now)
       WHERE status IN ('active', 'nonactive') AND in_use = 1 RETURNING ${TARGET_COLUMNS}`,
    );
    this.sendingAccounts = prep("SELECT * FROM whatsapps WHERE status = 'sending' ORDER BY id");
  }
}
