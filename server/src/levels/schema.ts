import { z } from 'zod';
import { MAX_FEE, tooLarge } from '../money/limits';
import { FIELD_LABELS } from '../../../common/errors';
import { wholeUpTo } from '../lib/ids';

const MAX_REQUIREMENT = 1_000_000_000;

export const LevelBody = z.object({
  name: z.string({ message: 'Name is required.' }).trim().min(1, 'Name is required.').max(100, 'Name is too long.'),
  blast_fee: wholeUpTo(FIELD_LABELS.level_fee[0], MAX_FEE, tooLarge(FIELD_LABELS.level_fee[0], MAX_FEE)),
  requirement_blast: wholeUpTo(FIELD_LABELS.requirement_blast[0], MAX_REQUIREMENT, `${FIELD_LABELS.requirement_blast[0]} is too large.`),
});

export type LevelInput = z.infer<typeof LevelBody>;
