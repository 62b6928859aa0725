import { z } from 'zod';
import { MAX_FEE, tooLarge } from '../money/limits';
import { FIELD_LABELS } from '../../../common/errors';

const whole = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ message: `${label} is required.` })
      .int(`${label} must be a whole number.`)
      .min(0, `${label} must be 0 or more.`)
      .max(1_000_000_000, `${label} is too large.`),
  );

export const LevelBody = z.object({
  name: z.string({ message: 'Name is required.' }).trim().min(1, 'Name is required.').max(100, 'Name is too long.'),
  blast_fee: whole(FIELD_LABELS.level_fee[0]).pipe(z.number().max(MAX_FEE, tooLarge(FIELD_LABELS.level_fee[0], MAX_FEE))),
  requirement_blast: whole(FIELD_LABELS.requirement_blast[0]),
});

export type LevelInput = z.infer<typeof LevelBody>;
