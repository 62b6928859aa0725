import { z } from 'zod';
import { jobFields } from '../engine/jobs/rules';

/** Multipart text fields of create and PUT /{id}: whatsapp_id, b_insert, interval_min, interval_max. */
export const ValidatorBody = z.object(jobFields);

export type ValidatorInput = z.infer<typeof ValidatorBody>;
