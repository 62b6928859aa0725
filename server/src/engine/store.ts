import type { Db } from '../db/client';
import { engineStoreOf } from '../db/stores';
import type { WindowFilter } from './window';

/**
 * What the blast engine asks of the database, and nothing more. The loops never query tables
 * themselves: they claim targets, record sends and release claims through `tick()`, one call and
 * one transaction for everything one turn of the event loop asked for. Rows come in the column
 * names and plain values of the tables (integers for flags and times), whatever the store.
 */

/** A target as a claim returns it. */
export interface ClaimedTarget {
  id: number;
  number: string;
  name: string;
  /** Which attempt at the number's message this send is: 1, or one more than the last while a retry is pending. */
  attempt?: number;
}

/** An account row (snake_case, integers for booleans and times). */
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
  gateway: 'simulator' | 'cloud-api';
  cloud_phone_number_id: string | null;
  cloud_waba_id: string | null;
  /** Encrypted at rest; never leaves the server. */
  cloud_token: string | null;
  quality_rating: string | null;
  messaging_tier: string | null;
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
  send_attempts?: number;
  next_attempt_at?: number | null;
  last_error?: string | null;
  last_failed_at?: number | null;
  failed_at?: number | null;
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
  /** The approved Cloud API template it maps to (Cloud API accounts send only mapped templates). */
  wa_template_name: string | null;
  wa_template_language: string | null;
  /** JSON array, one entry per body parameter in order: '{name}' or '{phoneNumber}'. */
  wa_template_params: string;
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
  /** 'Maks. Percobaan' (engine/retry.ts); the default when a caller's rows predate it. */
  max_attempts?: number;
  /** 'Jam Kirim' and the install's zone (engine/window.ts). */
  send_from: string;
  send_to: string;
  time_zone: string;
}

/** What the rules read on every send: settings (null before the row exists), levels by requirement, active templates by use. */
export interface RuleRows {
  settings: RawSettings | null;
  levels: RawLevel[];
  templates: RawTemplate[];
}

/** One send to record: its log row, the counters, the income and the referral credit. */
export interface SendRecord {
  accountId: number;
  userId: number;
  target: ClaimedTarget;
  templateId: number;
  success: boolean;
  errorCode: string | null;
  /** Claim the account's next target in the same transaction when the interval comes to 0. */
  claimNext: boolean;
  /**
   * Cloud API sends: accepted now, paid when Meta reports the message delivered (webhooks). The log row
   * keeps Meta's message id and delivery status 'sent'; income stays 0 until then.
   */
  payOnDelivery?: boolean;
  /**
   * The gateway's id of an accepted message (Meta's wamid, the simulator's id): its delivery and read are
   * reported by it later, and the log row starts at delivery status 'sent'.
   */
  messageId?: string | null;
  /** A failure whose reason may pass (engine/retry.ts). */
  transient?: boolean;
  /**
   * The retry policy's answer (the ticker fills these in): when the number's next attempt is due (its
   * last_sent then stays as it was, so the cooldown does not hold the retry back), or that it failed for good.
   */
  retryAt?: number | null;
  failed?: boolean;
}

/**
 * The engine's rules, applied by the store to the rows it reads inside the transaction. They are
 * pure (no database, no I/O), so a store may call them again when it retries a transaction.
 */
export interface SendRules {
  /** What a successful send earns the member (their current row). */
  fee(member: RawMember): number;
  /** The referrer's credit on an income (0: none). */
  referral(income: number): number;
  /** Seconds before the account's next send (the account after the record, the member). */
  interval(account: RawAccount, member: RawMember | undefined): number;
}

/** Everything one tick asks for. */
export interface TickWork {
  now: number;
  /** Numbers last messaged after this time are still cooling down. */
  cutoff: number;
  records: SendRecord[];
  /** Claims given back uncounted (a stop, a dropped device). */
  releases: number[];
  /** Accounts that want their next target, one each. */
  claims: number[];
  /** 'Jam Kirim': only numbers whose local time is inside the window are claimed. */
  window: WindowFilter;
  rules: SendRules;
}

export interface RecordedSend {
  /** Null when the account was deleted while the send was in flight. */
  account: RawAccount | null;
  /** Null when the number was deleted meanwhile. */
  target: RawTarget | null;
  income: number;
  interval: number;
  /** The referrer credited, if any. */
  referrerId: number | null;
  /** The next target claimed with the record (claimNext and an interval of 0), else null. */
  next: ClaimedTarget | null;
}

/** A tick's answers, in the order of the work's lists. */
export interface TickDone {
  records: RecordedSend[];
  releases: Array<RawTarget | null>;
  claims: Array<ClaimedTarget | null>;
}

export interface EngineStore {
  /** Settings, levels and active templates, read together. */
  rules(): Promise<RuleRows>;
  /**
   * One transaction: the records first (each releases its claim), then the releases, then the
   * claims (a claim takes one eligible target: active, unclaimed, not opted out, never sent first,
   * then the oldest last_sent not after the cut-off). All of it is written, or none of it.
   */
  tick(work: TickWork): Promise<TickDone>;
  account(id: number): Promise<RawAccount | undefined>;
  /** Sets the account's blast status; the row after, or undefined when it is gone (or the store closed). */
  setStatus(id: number, status: 'idle' | 'sending', now: number): Promise<RawAccount | undefined>;
  isOptedOut(number: string): Promise<boolean>;
  targetByNumber(number: string): Promise<RawTarget | undefined>;
  /**
   * Start-up: every claim a dead process left is released, the number counted as messaged now
   * (its attempt's outcome is unknown), in one transaction.
   */
  releaseAbandoned(now: number): Promise<RawTarget[]>;
  /** The earliest pending retry of an active, unclaimed number still ahead of `now`, or null. */
  nextRetryAt(now: number): Promise<number | null>;
  /** Up to `limit` accounts whose status is still sending, after `after` in id order (a range of whatsapps_status_idx). */
  sendingAccounts(after: number, limit: number): Promise<RawAccount[]>;
  /**
   * The first three digits of every number a claim could take but for the send window (active, not
   * claimed, not opted out, cooled down by `cutoff`), each once: whose countries a waiting blast waits for.
   */
  waitingPrefixes(cutoff: number): Promise<string[]>;
  /** False once the database is closed: loops finishing then write nothing. */
  isOpen(): boolean;
}

/** The engine store of a database handle. */
export function engineStore(db: Db): EngineStore {
  return engineStoreOf(db);
}
