import { z } from 'zod';

const text = (required: string) =>
  z.preprocess((v) => (v === null || v === undefined ? '' : typeof v === 'number' ? String(v) : v), z.string({ message: required }).trim().min(1, required).max(200, 'Maksimal 200 karakter.'));

export const NUMBER_REQUIRED = 'Nomor telepon wajib diisi.';
export const NAME_REQUIRED = 'Nama wajib diisi.';

export const PhoneNumberSave = z.object({
  number: text(NUMBER_REQUIRED),
  name: text(NAME_REQUIRED),
});
export type PhoneNumberSaveInput = z.infer<typeof PhoneNumberSave>;

export const PhoneNumberUpdate = PhoneNumberSave.extend({
  status: z.enum(['active', 'nonactive'], { message: 'Status harus active atau nonactive.' }),
});
export type PhoneNumberUpdateInput = z.infer<typeof PhoneNumberUpdate>;

export const ExportQuery = z.object({
  format: z.enum(['csv', 'json']).default('csv'),
});

/** A number added to the suppression list by hand (someone asked not to be messaged). */
export const OptOutSave = PhoneNumberSave.pick({ number: true });
export type OptOutSaveInput = z.infer<typeof OptOutSave>;
