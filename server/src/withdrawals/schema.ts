import { z } from 'zod';
import { MAX_WITHDRAW, tooLarge } from '../money/limits';
import { FIELD_LABELS } from '../../../common/errors';
import { decimal, typedAmount } from '../lib/ids';

export const MIN_WITHDRAW = 10_000;
export const MIN_WITHDRAW_MSG = 'Minimal permintaan penarikan adalah Rp 10.000';
export const NO_BANK_MSG = 'Rekening bank belum diisi. Lengkapi data bank Anda di profil terlebih dahulu.';
export const NO_BALANCE_MSG = 'Saldo tidak mencukupi untuk permintaan penarikan ini.';

export const WithdrawRequestBody = z.object({
  nominal: z.preprocess(
    typedAmount,
    // Bounds decide a number past 2^53 (zod's int() would call it not whole): too large, or below the minimum.
    z.number({ message: MIN_WITHDRAW_MSG }).max(MAX_WITHDRAW, tooLarge(FIELD_LABELS.nominal[0], MAX_WITHDRAW)).refine(Number.isInteger, 'Nominal harus bilangan bulat.').min(MIN_WITHDRAW, MIN_WITHDRAW_MSG),
  ),
  userId: z.preprocess(decimal, z.number().int().positive()).optional().nullable(),
});

export const WithdrawUpdateBody = z.object({
  id: z.preprocess(decimal, z.number({ message: 'id is required.' }).int().positive()),
  status: z.enum(['requested', 'accepted', 'rejected'], { message: 'Status must be requested, accepted or rejected.' }),
});

export type WithdrawStatus = z.infer<typeof WithdrawUpdateBody>['status'];
