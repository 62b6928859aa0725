import { z } from 'zod';

/**
 * The parts of Meta's WhatsApp webhook body this server reads. Everything else (contacts, pricing,
 * conversation, other change fields) is allowed through and ignored; a status or message missing
 * what we need is dropped one by one, never the whole body.
 */

const metaError = z.object({
  code: z.union([z.number(), z.string()]).optional(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.object({ details: z.string().optional() }).optional(),
});

export const statusSchema = z.object({
  id: z.string().min(1),
  status: z.enum(['sent', 'delivered', 'read', 'failed']),
  timestamp: z.union([z.string(), z.number()]).optional(),
  recipient_id: z.string().optional(),
  errors: z.array(metaError).optional(),
});
export type CloudStatus = z.infer<typeof statusSchema>;

export const messageSchema = z.object({
  from: z.string().min(1),
  id: z.string().min(1),
  timestamp: z.union([z.string(), z.number()]).optional(),
  type: z.string(),
  text: z.object({ body: z.string() }).optional(),
  button: z.object({ payload: z.string().optional(), text: z.string().optional() }).optional(),
  interactive: z
    .object({
      type: z.string().optional(),
      button_reply: z.object({ id: z.string().optional(), title: z.string().optional() }).optional(),
    })
    .optional(),
});
export type CloudMessage = z.infer<typeof messageSchema>;

const value = z.object({
  metadata: z.object({ phone_number_id: z.string().optional(), display_phone_number: z.string().optional() }).optional(),
  statuses: z.array(z.unknown()).optional(),
  messages: z.array(z.unknown()).optional(),
});

export const bodySchema = z.object({
  object: z.string().optional(),
  entry: z
    .array(
      z.object({
        changes: z.array(z.object({ field: z.string().optional(), value: value.optional() })).optional(),
      }),
    )
    .optional(),
});

/** One change's statuses and messages, with the business number they came to. */
export interface ChangeBatch {
  phoneNumberId: string | null;
  statuses: CloudStatus[];
  messages: CloudMessage[];
}

/** The statuses and messages of a parsed body, in order; malformed items are skipped. */
export function batchesOf(body: unknown): ChangeBatch[] {
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) return [];
  const out: ChangeBatch[] = [];
  for (const entry of parsed.data.entry ?? []) {
    for (const change of entry.changes ?? []) {
      const v = change.value;
      if (!v) continue;
      const statuses = (v.statuses ?? []).flatMap((s) => {
        const r = statusSchema.safeParse(s);
        return r.success ? [r.data] : [];
      });
      const messages = (v.messages ?? []).flatMap((m) => {
        const r = messageSchema.safeParse(m);
        return r.success ? [r.data] : [];
      });
      if (statuses.length || messages.length) out.push({ phoneNumberId: v.metadata?.phone_number_id ?? null, statuses, messages });
    }
  }
  return out;
}
