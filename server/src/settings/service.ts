import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/client';
import { settings } from '../db/schema';

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
  };
}

const whole = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ message: `${label} is required.` })
      .int(`${label} must be a whole number.`)
      .min(0, `${label} must be 0 or more.`),
  );
const required = (label: string) =>
  z.string({ message: `${label} is required.` }).trim().min(1, `${label} is required.`).max(5000);

export const SettingsUpdate = z
  .object({
    interval_min: whole('Interval min'),
    interval_max: whole('Interval max'),
    price: whole('Price'),
    bank_names: required('Bank names'),
    colors: required('Colors'),
    referral_percent: whole('Referral percent').pipe(z.number().max(100, 'Referral percent must be between 0 and 100.')),
    info: required('Info'),
    recipient_cooldown: whole('Recipient cooldown').optional(),
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
      bankNames: input.bank_names,
      colors: input.colors,
      referralPercent: input.referral_percent,
      info: input.info,
      ...(input.recipient_cooldown !== undefined ? { recipientCooldownHours: input.recipient_cooldown } : {}),
      updatedAt: new Date(),
    })
    .where(eq(settings.id, 1))
    .run();
  return getSettings(db);
}
