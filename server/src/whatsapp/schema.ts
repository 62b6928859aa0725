import { z } from 'zod';
import { decimal, wholeNumber } from '../lib/ids';
import { FIELD_LABELS } from '../../../common/errors';

const optionalText = (max: number) => z.preprocess((v) => (v === null || v === '' ? undefined : v), z.string().trim().max(max).optional());
const optionalId = z.preprocess(
  (v) => (v === null || v === '' || v === undefined ? undefined : decimal(v)),
  z.number().int().positive().optional(),
);

/** The WhatsApp ID the console makes: `id-{timestamp}-{0-9999}` (any short token of safe characters). */
export const DeviceId = z
  .string({ message: 'deviceId wajib diisi' })
  .trim()
  .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'deviceId tidak valid');

export const NewClientBody = z.object({
  deviceId: DeviceId,
  userId: z.unknown().optional(),
  previousDeviceId: optionalText(64),
  phoneNumber: optionalText(30),
});

export const RemoveClientBody = z.object({ deviceId: DeviceId });

/** The save payload is free-form; only these fields are read, and identity comes from the gateway. */
export const SaveBody = z.object({
  clientid: DeviceId,
  reconnect: optionalId,
});

export const IdBody = z.object({
  id: z.preprocess(decimal, z.number({ message: 'id wajib diisi' }).int().positive('id tidak valid')),
});

export const StatusBody = IdBody.extend({
  status: z.enum(['idle'], { message: "status harus 'idle'; blast dimulai dengan Start Blast" }),
});

export const IntervalBody = IdBody.extend({
  interval: z.preprocess(
    (v) => (v === '' ? null : v),
    wholeNumber(`${FIELD_LABELS.interval[0]} harus bilangan bulat 0 atau lebih`, { value: 86_400, message: `${FIELD_LABELS.interval[0]} paling lama 86400 detik` }).nullable(),
  ),
});
