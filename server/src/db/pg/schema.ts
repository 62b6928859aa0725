/**
 * The PostgreSQL tables, for drizzle-kit to write drizzle/pg migrations from. They mirror ../schema.ts
 * column for column (tests/api/store-schema-parity.test.ts checks it); queries use ../schema.ts on both stores.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';

/** Epoch milliseconds, as the SQLite store keeps them; the shared table objects map them to Date. */
const ms = (name: string) => bigint(name, { mode: 'number' });
const nowMs = sql`((extract(epoch from clock_timestamp()) * 1000)::bigint)`;
const createdAt = () => ms('created_at').notNull().default(nowMs);
/** 0/1 flags, as the SQLite store keeps them; the shared table objects map them to boolean. */
const flag = (name: string) => smallint(name);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    firstname: text('firstname').notNull(),
    lastname: text('lastname').notNull().default(''),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().default('member'),
    referralCode: text('referral_code').notNull(),
    referredBy: integer('referred_by'),
    accountBank: text('account_bank'),
    accountNumber: text('account_number'),
    accountName: text('account_name'),
    blastIntervalMin: integer('blast_interval_min'),
    blastIntervalMax: integer('blast_interval_max'),
    blastFee: integer('blast_fee'),
    /** Running totals kept by the blast transaction, so lists and levels need no scan of the log. */
    totalSuccess: integer('total_success').notNull().default(0),
    totalFail: integer('total_fail').notNull().default(0),
    income: bigint('income', { mode: 'number' }).notNull().default(0),
    /** Bumped by sign-out-everywhere; tokens carry it with the password fingerprint. */
    sessionEpoch: integer('session_epoch').notNull().default(0),
    totpSecret: text('totp_secret'),
    totpEnabledAt: ms('totp_enabled_at'),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_uq').on(t.email),
    uniqueIndex('users_referral_code_uq').on(t.referralCode),
    index('users_referred_by_idx').on(t.referredBy),
    index('users_role_idx').on(t.role, t.id),
  ],
);

export const levels = pgTable(
  'levels',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    blastFee: integer('blast_fee').notNull(),
    requirementBlast: integer('requirement_blast').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('levels_requirement_idx').on(t.requirementBlast)],
);

export const settings = pgTable('settings', {
  id: integer('id').primaryKey(),
  intervalMin: integer('interval_min').notNull().default(1),
  intervalMax: integer('interval_max').notNull().default(2),
  price: integer('price').notNull().default(0),
  bankNames: text('bank_names').notNull().default('BCA, MANDIRI, BRI'),
  colors: text('colors').notNull().default('#2C2C2C, #3E3A32'),
  referralPercent: integer('referral_percent').notNull().default(0),
  info: text('info').notNull().default(''),
  recipientCooldownHours: integer('recipient_cooldown_hours').notNull().default(24),
  /** 'Maks. Percobaan': attempts a number gets at one message when its sends fail for a reason that may pass. */
  maxAttempts: integer('max_attempts').notNull().default(3),
  /** 'Kode Negara Default': ISO 3166 alpha-2; numbers written without a country code belong to it. */
  defaultCountry: text('default_country').notNull().default('ID'),
  signupMode: text('signup_mode'),
  /** 'Jam Kirim': targets are claimed only while their local time is in [send_from, send_to) (engine/window.ts). */
  sendFrom: text('send_from').notNull().default('08:00'),
  sendTo: text('send_to').notNull().default('20:00'),
  /** The install's IANA time zone: numbers without a country, and the times members are shown. */
  timeZone: text('time_zone').notNull().default('Asia/Jakarta'),
  updatedAt: ms('updated_at'),
});

export const proxies = pgTable(
  'proxies',
  {
    id: serial('id').primaryKey(),
    value: text('value').notNull(),
    status: text('status').notNull().default('active'),
    countUse: integer('count_use').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('proxies_value_uq').on(t.value), index('proxies_status_use_idx').on(t.status, t.countUse)],
);

export const whatsapps = pgTable(
  'whatsapps',
  {
    id: serial('id').primaryKey(),
    deviceId: text('device_id').notNull(),
    clientid: text('clientid').notNull(),
    pushname: text('pushname'),
    phonenumber: text('phonenumber'),
    server: text('server'),
    serialized: text('serialized'),
    proxyId: integer('proxy_id').references(() => proxies.id, { onDelete: 'set null' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    state: text('state'),
    status: text('status').notNull().default('idle'),
    interval: integer('interval'),
    /** The interval was set by the account's owner, not an operator: it may only lengthen the pause. */
    ownInterval: flag('own_interval').notNull().default(0),
    countSuccess: integer('count_success').notNull().default(0),
    countFail: integer('count_fail').notNull().default(0),
    income: bigint('income', { mode: 'number' }).notNull().default(0),
    suspended: flag('suspended').notNull().default(0),
    suspendedCount: integer('suspended_count').notNull().default(0),
    /** Times the account came back after dropping (gateway reconnects, in-place and re-link reconnects). */
    reconnectCount: integer('reconnect_count').notNull().default(0),
    /** Which gateway the account sends through: the simulator, or the WhatsApp Business Cloud API. */
    gateway: text('gateway').notNull().default('simulator'),
    /** Cloud API accounts: the business phone number's id, its WhatsApp Business Account id, the access token encrypted at rest. */
    cloudPhoneNumberId: text('cloud_phone_number_id'),
    cloudWabaId: text('cloud_waba_id'),
    cloudToken: text('cloud_token'),
    /** As Graph reports them: GREEN/YELLOW/RED and the messaging limit tier (TIER_1K…). */
    qualityRating: text('quality_rating'),
    messagingTier: text('messaging_tier'),
    createdAt: createdAt(),
    updatedAt: ms('updated_at'),
  },
  (t) => [
    uniqueIndex('whatsapps_device_uq').on(t.deviceId),
    index('whatsapps_clientid_idx').on(t.clientid),
    index('whatsapps_user_idx').on(t.userId, t.id),
    index('whatsapps_state_idx').on(t.state),
    index('whatsapps_status_idx').on(t.status, t.id),
    index('whatsapps_phone_idx').on(t.phonenumber),
  ],
);

export const phoneNumbers = pgTable(
  'phone_numbers',
  {
    id: serial('id').primaryKey(),
    number: text('number').notNull(),
    name: text('name').notNull().default(''),
    status: text('status').notNull().default('active'),
    inUse: integer('in_use').notNull().default(0),
    /** The account holding the claim while in_use = 1, so a restart can release it. */
    claimedBy: integer('claimed_by'),
    countSuccess: integer('count_success').notNull().default(0),
    countFail: integer('count_fail').notNull().default(0),
    lastSent: ms('last_sent'),
    /**
     * mobile | fixed_line | other from the numbering plan; invalid or duplicate when the re-normalisation
     * of older rows could not keep them (never messaged); 'pending' marks rows from before it ran and
     * NULL rows an import added, classified in the background.
     */
    lineType: text('line_type'),
    /** Attempts at the number's latest message (engine/retry.ts): 1 for a first send, counting up while it is retried. */
    sendAttempts: integer('send_attempts').notNull().default(0),
    /** When a send that failed for a reason that may pass is tried again; null when none is pending. */
    nextAttemptAt: ms('next_attempt_at'),
    /** The gateway's code of the last failed send, and when it failed. */
    lastError: text('last_error'),
    lastFailedAt: ms('last_failed_at'),
    /** 'Gagal permanen': set (with status nonactive) when the attempts ran out or the reason was permanent. */
    failedAt: ms('failed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('phone_numbers_number_uq').on(t.number),
    index('phone_numbers_target_idx').on(t.status, t.inUse, t.lastSent),
    index('phone_numbers_retry_idx').on(t.nextAttemptAt).where(sql`next_attempt_at IS NOT NULL`),
    index('phone_numbers_failed_idx').on(t.id).where(sql`failed_at IS NOT NULL`),
  ],
);

/** Suppression list: numbers that opted out are never messaged again. */
export const optOuts = pgTable(
  'opt_outs',
  {
    id: serial('id').primaryKey(),
    number: text('number').notNull(),
    reason: text('reason').notNull(),
    whatsappId: integer('whatsapp_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('opt_outs_number_uq').on(t.number)],
);

/**
 * The last send to each number whose list row was deleted: a number added back keeps its recipient
 * cooldown (it is read into the new row and removed from here). Rows past the longest cooldown go.
 */
export const removedRecipients = pgTable('removed_recipients', {
  number: text('number').primaryKey(),
  lastSent: ms('last_sent').notNull(),
});

export const messageTemplates = pgTable(
  'message_templates',
  {
    id: serial('id').primaryKey(),
    media: text('media'),
    text: text('text').notNull().default(''),
    textWa: text('text_wa').notNull().default(''),
    /** JSON array of buttons {id, title, url, type}. */
    button: text('button').notNull().default('[]'),
    status: text('status').notNull().default('active'),
    countUse: integer('count_use').notNull().default(0),
    /** The approved Cloud API template this console template is sent as, its language, and what fills its body parameters. */
    waTemplateName: text('wa_template_name'),
    waTemplateLanguage: text('wa_template_language'),
    /** JSON array, one entry per body parameter in order: '{name}' or '{phoneNumber}'. */
    waTemplateParams: text('wa_template_params').notNull().default('[]'),
    createdAt: createdAt(),
  },
  (t) => [index('message_templates_pick_idx').on(t.status, t.countUse)],
);

/** One row per send attempt, with the income it earned. */
export const messageLogs = pgTable(
  'message_logs',
  {
    id: serial('id').primaryKey(),
    whatsappId: integer('whatsapp_id'),
    userId: integer('user_id').notNull(),
    phoneNumberId: integer('phone_number_id'),
    number: text('number').notNull(),
    templateId: integer('template_id'),
    success: flag('success').notNull(),
    errorCode: text('error_code'),
    income: bigint('income', { mode: 'number' }).notNull().default(0),
    /** Cloud API sends: Meta's message id, and the delivery status its webhooks reported (sent, delivered, read, failed). */
    waMessageId: text('wa_message_id'),
    deliveryStatus: text('delivery_status'),
    statusAt: ms('status_at'),
    deliveryError: text('delivery_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('message_logs_user_time_idx').on(t.userId, t.createdAt),
    index('message_logs_time_idx').on(t.createdAt),
    index('message_logs_whatsapp_idx').on(t.whatsappId, t.createdAt),
    index('message_logs_number_idx').on(t.number, t.createdAt),
    index('message_logs_wa_message_idx').on(t.waMessageId),
  ],
);

export const bonuses = pgTable(
  'bonuses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    adminId: integer('admin_id').references(() => users.id, { onDelete: 'set null' }),
    nominal: bigint('nominal', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
    /** The sender's Idempotency-Key: a retried request finds the bonus it already made. */
    requestKey: text('request_key'),
  },
  (t) => [index('bonuses_user_idx').on(t.userId, t.createdAt), uniqueIndex('bonuses_request_key_idx').on(t.adminId, t.requestKey)],
);

/** Credit paid to a referrer when a member they referred earns. */
export const referralCredits = pgTable(
  'referral_credits',
  {
    id: serial('id').primaryKey(),
    referrerId: integer('referrer_id').notNull(),
    referredId: integer('referred_id').notNull(),
    messageLogId: integer('message_log_id'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('referral_credits_referrer_idx').on(t.referrerId, t.referredId)],
);

export const withdrawals = pgTable(
  'withdrawals',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nominal: bigint('nominal', { mode: 'number' }).notNull(),
    status: text('status').notNull().default('requested'),
    updatedBy: integer('updated_by'),
    updatedAt: ms('updated_at'),
    createdAt: createdAt(),
    /** The member's Idempotency-Key: a retried request finds the withdrawal it already made. */
    requestKey: text('request_key'),
  },
  (t) => [index('withdrawals_user_idx').on(t.userId, t.status), index('withdrawals_time_idx').on(t.createdAt), uniqueIndex('withdrawals_request_key_idx').on(t.userId, t.requestKey)],
);

export const generators = pgTable(
  'generators',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    startNumber: text('start_number').notNull(),
    endNumber: text('end_number').notNull(),
    currentNumber: text('current_number'),
    bInsert: integer('b_insert').notNull().default(0),
    intervalMin: integer('interval_min').notNull().default(1),
    intervalMax: integer('interval_max').notNull().default(2),
    total: integer('total').notNull().default(0),
    checked: integer('checked').notNull().default(0),
    countSuccess: integer('count_success').notNull().default(0),
    countFail: integer('count_fail').notNull().default(0),
    status: text('status').notNull().default('idle'),
    state: text('state'),
    createdAt: createdAt(),
  },
  (t) => [index('generators_user_idx').on(t.userId, t.id)],
);

export const generatorResults = pgTable(
  'generator_results',
  {
    id: serial('id').primaryKey(),
    generatorId: integer('generator_id')
      .notNull()
      .references(() => generators.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    name: text('name').notNull().default(''),
  },
  (t) => [uniqueIndex('generator_results_uq').on(t.generatorId, t.number)],
);

export const validators = pgTable(
  'validators',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    fileUrl: text('file_url').notNull(),
    bInsert: integer('b_insert').notNull().default(0),
    intervalMin: integer('interval_min').notNull().default(1),
    intervalMax: integer('interval_max').notNull().default(2),
    total: integer('total').notNull().default(0),
    checked: integer('checked').notNull().default(0),
    countSuccess: integer('count_success').notNull().default(0),
    countFail: integer('count_fail').notNull().default(0),
    status: text('status').notNull().default('idle'),
    state: text('state'),
    createdAt: createdAt(),
  },
  (t) => [index('validators_user_idx').on(t.userId, t.id)],
);

/** The numbers of a validator's file, in file order; `result` is set once checked. */
export const validatorItems = pgTable(
  'validator_items',
  {
    id: serial('id').primaryKey(),
    validatorId: integer('validator_id')
      .notNull()
      .references(() => validators.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    number: text('number').notNull(),
    name: text('name').notNull().default(''),
    /** null = not checked yet; 'registered' | 'unregistered' | 'invalid' | 'failed' (checks kept failing); `reason` says why. */
    result: text('result'),
    reason: text('reason'),
    resultName: text('result_name'),
  },
  (t) => [uniqueIndex('validator_items_seq_uq').on(t.validatorId, t.seq), index('validator_items_result_idx').on(t.validatorId, t.result)],
);

/** Who changed what for whom: roles, passwords, money and rules. Written in the change's transaction. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    targetUserId: integer('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    details: text('details').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt, t.id)],
);

/** Tokens ended by sign-out, kept until they would have expired anyway. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull(),
    codeHash: text('code_hash').notNull(),
    usedAt: ms('used_at'),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_uq').on(t.userId, t.codeHash)],
);

export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    expiresAt: ms('expires_at').notNull(),
  },
  (t) => [index('revoked_tokens_expires_idx').on(t.expiresAt)],
);

export const leases = pgTable(
  'leases',
  {
    kind: text('kind').notNull(),
    workId: integer('work_id').notNull(),
    node: text('node').notNull(),
    expiresAt: ms('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.workId] }), index('leases_node_idx').on(t.node), index('leases_expiry_idx').on(t.expiresAt)],
);

export const heldStatuses = pgTable(
  'held_statuses',
  {
    id: serial('id').primaryKey(),
    waMessageId: text('wa_message_id').notNull(),
    status: text('status').notNull(),
    expiresAt: ms('expires_at').notNull(),
  },
  (t) => [index('held_statuses_expires_idx').on(t.expiresAt)],
);

export const blastSchedules = pgTable(
  'blast_schedules',
  {
    id: serial('id').primaryKey(),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    runAt: ms('run_at').notNull(),
    claimedUntil: ms('claimed_until'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('blast_schedules_whatsapp_uq').on(t.whatsappId), index('blast_schedules_run_at_idx').on(t.runAt)],
);
