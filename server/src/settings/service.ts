import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/client';
import { settings } from '../db/schema';
import { DEFAULT_COUNTRY, isSupportedCountry } from '../../../common/phone';

export type SettingsRow = typeof settings.$inferSelect;

export function getSettings(db: Db | Tx): SettingsRow {
  const row = db.select().from(settings).where(eq(settings.id, 1)).get();
  if (row) return row;
  db.insert(settings).values({ id: 1 }).onConflictDoNothing().run();
  return db.select().from(settings).where(eq(settings.id, 1)).get()!;
}

/** The settings as the API shows them (snake_case, spec names). */
export function settingsView(row: SettingsRow) {
  return {
    interval_min: row.intervalMin,
    interval_max: row.intervalMax,
    price: row.price,
    bank_names: row.bankNames,
    colors: row.colors,
    referral_percent: row.referralPercent,
    info: row.info,
    recipient_cooldown: row.recipientCooldownHours,
    default_country: row.defaultCountry,
  };
}

/** 'Kode Negara Default': the country a number written without a country code belongs to. */
export function defaultCountry(db: Db | Tx): string {
  const row = db.select({ c: settings.defaultCountry }).from(settings).where(eq(settings.id, 1)).get();
  return row && isSupportedCountry(row.c) ? row.c : DEFAULT_COUNTRY;
}

/** The same, for code holding only the SQLite connection (the import staging). */
export function defaultCountryOf(client: { prepare(sql: string): { get(): unknown } }): string {
  const row = client.prepare('SELECT default_country AS c FROM settings WHERE id = 1').get() as { c: string } | undefined;
  return row && isSupportedCountry(row.c) ? row.c : DEFAULT_COUNTRY;
}

export const COUNTRY_MESSAGE = 'Kode Negara Default harus kode negara ISO 3166 dua huruf yang dikenal, mis. ID.';

const whole = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ message: `${label} is required.` })
      .int(`${label} must be a whole number.`)
      .min(0, `${label} must be 0 or more.`),
  );
const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const listOf = (v: string) =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const required = (label: string) =>
  z.string({ message: `${label} is required.` }).trim().min(1, `${label} is required.`).max(5000);

export const SettingsUpdate = z
  .object({
    interval_min: whole('Interval min'),
    interval_max: whole('Interval max'),
    price: whole('Price'),
    bank_names: required('Bank names').refine((v) => listOf(v).length > 0, 'Bank names is required.'),
    colors: required('Colors').refine(
      (v) => listOf(v).length > 0 && listOf(v).every((c) => HEX_COLOR.test(c)),
      'Colors must be hex colours separated by comma and space, e.g. #2C2C2C, #3E3A32.',
    ),
    referral_percent: whole('Referral percent').pipe(z.number().max(100, 'Referral percent must be between 0 and 100.')),
    info: required('Info'),
    recipient_cooldown: whole('Recipient cooldown').pipe(z.number().max(8760, 'Recipient cooldown must be at most 8760 hours.')),
    // Optional so a client that does not know the field keeps the stored country.
    default_country: z
      .string({ message: COUNTRY_MESSAGE })
      .trim()
      .transform((v) => v.toUpperCase())
      .refine(isSupportedCountry, COUNTRY_MESSAGE)
      .optional(),
  })
  .refine((s) => s.interval_min <= s.interval_max, {
    message: 'Interval min must not be greater than interval max.',
    path: ['interval_min'],
  });

export function updateSettings(db: Db, input: z.infer<typeof SettingsUpdate>): SettingsRow {
  getSettings(db);
  db.update(settings)
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
      ...(input.default_country ? { defaultCountry: input.default_country } : {}),
      updatedAt: new Date(),
    })
    .where(eq(settings.id, 1))
    .run();
  return getSettings(db);
}
