import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { transaction, type Db, type Tx } from '../db/client';
import { one } from '../db/raw';
import { settings } from '../db/schema';
import { MAX_FEE, tooLarge } from '../money/limits';
import { writeAudit } from '../audit/service';
import { countryOr, isSupportedCountry } from '../../../common/phone';
import { FIELD_LABELS } from '../../../common/errors';
import { typedAmount, wholeUpTo } from '../lib/ids';
import { MAX_ATTEMPTS_MAX, MAX_ATTEMPTS_MIN } from '../engine/retry';
import { effectiveSignupMode, SignupModeField, type SignupMode } from './signup';
import { canonicalTimeZone, isClock, isTimeZone } from '../engine/window';

export type SettingsRow = typeof settings.$inferSelect;

/**
 * The Info text of a new install, so the admin's first save passes the required Info field and
 * members see a banner; the other defaults (spec 9) are the columns' own.
 */
export const DEFAULT_INFO = 'Selamat datang! Pengumuman dari admin akan tampil di sini.';

/**
 * Seeds the settings row of a new database with the defaults. An older install whose Info is still
 * empty and was never saved (no `updated_at`) gets the default Info too; a saved one is left alone.
 */
export async function seedSettings(db: Db | Tx): Promise<void> {
  for (const statement of settingsSeed(db)) await statement;
}

/** The statements of seedSettings, in order; both are idempotent. */
export function settingsSeed(db: Db | Tx) {
  return [
    db.insert(settings).values({ id: 1, info: DEFAULT_INFO }).onConflictDoNothing(),
    db
      .update(settings)
      .set({ info: DEFAULT_INFO })
      .where(and(eq(settings.id, 1), eq(settings.info, ''), isNull(settings.updatedAt))),
  ] as const;
}

const settingsRow = (db: Db | Tx) => one(db.select().from(settings).where(eq(settings.id, 1)).limit(1));

export async function getSettings(db: Db | Tx): Promise<SettingsRow> {
  const row = await settingsRow(db);
  if (row) return row;
  await seedSettings(db);
  return (await settingsRow(db))!;
}

/**
 * The settings as the API shows them (snake_case, spec names). `signupDefault` is the install's
 * 'Pendaftaran' while no admin has chosen one (settings/signup.ts).
 */
export function settingsView(row: SettingsRow, signupDefault: SignupMode = 'open') {
  return {
    interval_min: row.intervalMin,
    interval_max: row.intervalMax,
    price: row.price,
    bank_names: row.bankNames,
    colors: row.colors,
    referral_percent: row.referralPercent,
    info: row.info,
    recipient_cooldown: row.recipientCooldownHours,
    max_attempts: row.maxAttempts,
    default_country: row.defaultCountry,
    signup_mode: effectiveSignupMode(row.signupMode, signupDefault),
    send_from: row.sendFrom,
    send_to: row.sendTo,
    time_zone: row.timeZone,
  };
}

/** 'Kode Negara Default': the country a number written without a country code belongs to. */
export async function defaultCountry(db: Db | Tx): Promise<string> {
  const row = await one(db.select({ c: settings.defaultCountry }).from(settings).where(eq(settings.id, 1)).limit(1));
  return countryOr(row?.c);
}

/** The bounds are MAX_ATTEMPTS_MIN and MAX_ATTEMPTS_MAX (engine/retry.ts). */
export const MAX_ATTEMPTS_MESSAGE = 'Max attempts must be a whole number from 1 to 10.';

export const COUNTRY_MESSAGE = 'Kode Negara Default harus kode negara ISO 3166 dua huruf yang dikenal, mis. ID.';

export const SEND_WINDOW_MESSAGE = 'Jam Kirim harus berformat JJ:MM (00:00–23:59), mis. 08:00.';
export const TIME_ZONE_MESSAGE = 'Zona Waktu harus nama zona waktu IANA yang dikenal, mis. Asia/Jakarta.';
const clockField = z.string({ message: SEND_WINDOW_MESSAGE }).trim().refine(isClock, SEND_WINDOW_MESSAGE);

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const listOf = (v: string) =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const required = (label: string) =>
  z.string({ message: `${label} is required.` }).trim().min(1, `${label} is required.`).max(5000, `${label} is too long.`);

export const SettingsUpdate = z
  .object({
    interval_min: wholeUpTo(FIELD_LABELS.interval_min[1], 86_400, 'Interval min must be at most 86400 seconds.'),
    interval_max: wholeUpTo(FIELD_LABELS.interval_max[1], 86_400, 'Interval max must be at most 86400 seconds.'),
    price: wholeUpTo(FIELD_LABELS.price[0], MAX_FEE, tooLarge(FIELD_LABELS.price[0], MAX_FEE)),

    bank_names: required(FIELD_LABELS.bank_names[0]).refine((v) => listOf(v).length > 0, 'Bank names is required.'),
    colors: required(FIELD_LABELS.colors[0]).refine(
      (v) => listOf(v).length > 0 && listOf(v).every((c) => HEX_COLOR.test(c)),
      'Colors must be hex colours separated by comma and space, e.g. #2C2C2C, #3E3A32.',
    ),
    referral_percent: wholeUpTo(FIELD_LABELS.referral_percent[0], 100, 'Referral percent must be between 0 and 100.'),
    info: required(FIELD_LABELS.info[0]),
    recipient_cooldown: wholeUpTo(FIELD_LABELS.recipient_cooldown[0], 8760, 'Recipient cooldown must be at most 8760 hours.'),
    // 'Maks. Percobaan' (engine/retry.ts); optional like the country, so an older client keeps the stored value.
    max_attempts: z
      .preprocess(typedAmount, z.number({ message: MAX_ATTEMPTS_MESSAGE }).int(MAX_ATTEMPTS_MESSAGE).min(MAX_ATTEMPTS_MIN, MAX_ATTEMPTS_MESSAGE).max(MAX_ATTEMPTS_MAX, MAX_ATTEMPTS_MESSAGE))
      .optional(),
    // Optional so a client that does not know the field keeps the stored country.
    default_country: z
      .string({ message: COUNTRY_MESSAGE })
      .trim()
      .transform((v) => v.toUpperCase())
      .refine(isSupportedCountry, COUNTRY_MESSAGE)
      .optional(),
    // 'Pendaftaran'; optional like the country, so an older client keeps the stored choice.
    signup_mode: SignupModeField.optional(),
    // 'Jam Kirim' (from–to, from == to: always open) and the install's zone; optional like the country.
    send_from: clockField.optional(),
    send_to: clockField.optional(),
    time_zone: z.string({ message: TIME_ZONE_MESSAGE }).trim().refine(isTimeZone, TIME_ZONE_MESSAGE).transform(canonicalTimeZone).optional(),
  })
  .refine((s) => s.interval_min <= s.interval_max, {
    message: 'Interval min must not be greater than interval max.',
    path: ['interval_min'],
  });

/** Saves the settings and audits what changed, in one transaction. */
export async function updateSettings(db: Db, actorId: number, input: z.infer<typeof SettingsUpdate>, signupDefault: SignupMode = 'open'): Promise<SettingsRow> {
  return transaction(db, async (tx) => {
    const before = settingsView(await getSettings(tx), signupDefault);
    await tx
      .update(settings)
      .set({
        intervalMin: input.interval_min,
        intervalMax: input.interval_max,
        price: input.price,
        // Stored with the spec's separator, comma and space.
        bankNames: listOf(input.bank_names).join(', '),
        colors: listOf(input.colors).join(', '),
        referralPercent: input.referral_percent,
        info: input.info,
        recipientCooldownHours: input.recipient_cooldown,
        ...(input.max_attempts !== undefined ? { maxAttempts: input.max_attempts } : {}),
        ...(input.default_country ? { defaultCountry: input.default_country } : {}),
        ...(input.signup_mode ? { signupMode: input.signup_mode } : {}),
        ...(input.send_from ? { sendFrom: input.send_from } : {}),
        ...(input.send_to ? { sendTo: input.send_to } : {}),
        ...(input.time_zone ? { timeZone: input.time_zone } : {}),
        updatedAt: new Date(),
      })
      .where(eq(settings.id, 1));
    const row = await getSettings(tx);
    const after = settingsView(row, signupDefault);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of Object.keys(after) as Array<keyof typeof after>) {
      if (before[key] !== after[key]) changes[key] = { from: before[key], to: after[key] };
    }
    if (Object.keys(changes).length) await writeAudit(tx, actorId, null, 'settings.update', changes);
    return row;
  });
}
