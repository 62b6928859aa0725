import { z } from 'zod';
import { MAX_FEE, tooLarge } from '../money/limits';
import { FIELD_LABELS } from '../../../common/errors';

/** A whole number from 0 up to `max`; the bounds decide a number past 2^53 (zod's int() would call it not whole). */
const whole = (label: string, max = 1_000_000_000, tooBig = `${label} is too large.`) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ message: `${label} is required.` })
      .max(max, tooBig)
      .refine(Number.isInteger, `${label} must be a whole number.`)
      .min(0, `${label} must be 0 or more.`),
  );

export const LevelBody = z.object({
  name: z.string({ message: 'Name is required.' }).trim().min(1, 'Name is required.').max(100, 'Name is too long.'),
  blast_fee: whole(FIELD_LABELS.level_fee[0], MAX_FEE, tooLarge(FIELD_LABELS.level_fee[0], MAX_FEE)),
  requirement_blast: whole(FIELD_LABELS.requirement_blast[0]),
});

export type LevelInput = z.infer<typeof LevelBody>;
