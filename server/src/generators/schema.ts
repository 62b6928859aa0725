import { z } from 'zod';
import { jobFields } from '../engine/jobs/rules';

const numberText = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : (v ?? '')),
    z.string({ message: `${label} wajib diisi` }).trim().min(1, `${label} wajib diisi`).max(40, `${label} tidak valid`),
  );

/** POST create and PUT /{id}: start_number, end_number, whatsapp_id, b_insert, interval_min, interval_max. */
export const GeneratorBody = z.object({
  start_number: numberText('Target Nomor Awal'),
  end_number: numberText('Target Nomor Akhir'),
  ...jobFields,
});

export type GeneratorInput = z.infer<typeof GeneratorBody>;

