import { z } from 'zod';
import { MAX_BONUS, tooLarge } from '../money/limits';
import { FIELD_LABELS } from '../../../common/errors';
import { decimal, typedAmount } from '../lib/ids';


export const BonusCreateBody = z
  .object({
    // adminId is accepted for the documented body shape but never trusted: the signed-in admin is used.
    adminId: z.unknown().optional(),
    userId: z.preprocess(decimal, z.number({ message: 'Member is required.' }).int('Member is required.').positive('Member is required.')).optional(),
    user_id: z.preprocess(decimal, z.number().int().positive()).optional(),
    nominal: z.preprocess(
      typedAmount,
      // Bounds decide a number past 2^53 (zod's int() would call it not whole): too large, or not above 0.
      z.number({ message: 'Nominal is required.' }).max(MAX_BONUS, tooLarge(FIELD_LABELS.nominal[0], MAX_BONUS)).refine(Number.isInteger, 'Nominal must be a whole number.').min(1, 'Nominal must be more than 0.'),
    ),
    reason: z.string({ message: 'Keterangan is required.' }).trim().min(1, 'Keterangan is required.').max(1000, 'Keterangan is too long.'),
  })
  .transform((b, c) => {
    const userId = b.userId ?? b.user_id;
    if (userId === undefined) {
      c.addIssue({ code: 'custom', message: 'Member is required.', path: ['userId'] });
      return z.NEVER;
    }
    return { userId, nominal: b.nominal, reason: b.reason };
  });

export type BonusCreate = z.infer<typeof BonusCreateBody>;
