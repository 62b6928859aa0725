import { z } from 'zod';
import { FIELD_LABELS } from '../../../common/errors';
import { decimal } from '../lib/ids';

const text = (label: string, max = 200) =>
  z.string({ message: `${label} wajib diisi` }).trim().min(1, `${label} wajib diisi`).max(max, `${label} terlalu panjang`);
const optionalText = (max: number) =>
  z
    .preprocess((v) => (v === null || v === '' ? undefined : v), z.string().trim().max(max).optional());

export const ScanBody = z.object({
  qr: text(FIELD_LABELS.qr[0], 1000),
  phonenumber: optionalText(20),
  pushname: optionalText(60),
});

export const PairBody = z.object({
  code: text(FIELD_LABELS.pairing_code[0], 20),
  phonenumber: text(FIELD_LABELS.phone_number[0], 20),
});

export const ConnectionBody = z.object({
  deviceId: text('deviceId'),
  state: z.enum(['connected', 'disconnected', 'conflict', 'loggedOut'], {
    message: 'state harus connected, disconnected, conflict atau loggedOut',
  }),
});

export const ReplyBody = z.object({
  from: text(FIELD_LABELS.sender_number[0], 20),
  deviceId: text('deviceId'),
  text: z.string({ message: 'Pesan wajib diisi' }).max(4096, 'Pesan terlalu panjang'),
  buttonId: optionalText(200),
}).refine((b) => b.text.trim() !== '' || b.buttonId !== undefined, { message: 'Pesan wajib diisi', path: ['text'] });

export const RevokeBody = z.object({ deviceId: text('deviceId') });

export const NumbersQuery = z.object({
  registered: z
    .union([z.string(), z.undefined()])
    .transform((v) => v === undefined || !['false', '0', 'no'].includes(v.toLowerCase())),
  limit: z
    .union([z.string(), z.undefined()])
    .transform((v) => {
      const n = decimal(v ?? '10');
      return typeof n === 'number' && Number.isInteger(n) ? Math.min(Math.max(n, 1), 1000) : 10;
    }),
});
