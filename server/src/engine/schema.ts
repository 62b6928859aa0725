import { z } from 'zod';

/** The account a blast call names: its id, or its WhatsApp ID (clientid). */
const AccountRef = z.preprocess(
  (v) => (typeof v === 'string' && /^[0-9]+$/.test(v.trim()) ? Number(v) : v),
  z.union([z.number().int().positive(), z.string().trim().min(1).max(64)], { message: 'whatsappClientId wajib diisi' }),
);

/** Blast start/stop payload (spec 3): whatsappClientId, socketClientId, loop. */
export const BlastBody = z.object({
  whatsappClientId: AccountRef,
  socketClientId: z.unknown().optional(),
  loop: z.preprocess((v) => (v === undefined || v === null ? true : v === 'false' ? false : v), z.boolean()).optional(),
});

/** Schedule payload: the account and when its blast starts (an ISO date-time with its offset, or epoch ms). */
export const ScheduleBody = z.object({
  whatsappClientId: AccountRef,
  at: z.preprocess(
    (v) => (typeof v === 'number' || (typeof v === 'string' && v.trim() !== '') ? new Date(typeof v === 'string' && /^[0-9]+$/.test(v.trim()) ? Number(v) : v) : undefined),
    z.date({ message: 'Waktu jadwal wajib diisi' }).refine((d) => !Number.isNaN(d.getTime()), 'Waktu jadwal wajib diisi'),
  ),
});

/** Cancel payload: the account. */
export const CancelScheduleBody = z.object({ whatsappClientId: AccountRef });

const list = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v.map((x) => (typeof x === 'number' ? String(x) : x)) : v),
    z.array(z.string().trim().max(64)).max(max, `Paling banyak ${max} nomor`),
  );

/** Send payload (spec 3): senders (one account, or a list), targets (numbers, comma-joined or a list, or 'All'), message. */
export const SendBody = z.object({
  senders: z.preprocess((v) => (Array.isArray(v) ? v[0] : typeof v === 'number' ? String(v) : v), z.string({ message: 'Sender wajib dipilih' }).trim().min(1, 'Sender wajib dipilih').max(64)),
  targets: list(1_000_000).refine((l) => l.some((x) => x !== ''), 'Receiver wajib dipilih'),
  message: z.string({ message: 'Pesan wajib diisi' }).trim().min(1, 'Pesan wajib diisi').max(65_536, 'Pesan terlalu panjang'),
});
