import type { PhoneNumberView } from '../../../../common/phonenumber';

/** A phone-number row as the list shows it. */
export type PhoneNumberRow = PhoneNumberView;

const FIELDS = ['count_success', 'count_fail', 'last_sent', 'in_use', 'status', 'name', 'opt_out_reason', 'send_attempts', 'last_error', 'last_failed_at', 'next_attempt_at', 'failed_at'] as const;

/** Events that highlight their row for a second. */
export const HIGHLIGHT_EVENTS = new Set(['count_success', 'count_fail']);

/**
 * Applies a `client-admin` message carrying `data.receiver` (absolute values) to the rows on screen.
 * Answers the new rows and the id of the row that changed, or null when the row is not on this page.
 */
export function applyReceiverEvent(rows: PhoneNumberRow[], msg: { event: string; data: unknown }): { rows: PhoneNumberRow[]; changedId: number | null } {
  const data = msg.data && typeof msg.data === 'object' ? (msg.data as Record<string, unknown>) : {};
  const receiver = data.receiver && typeof data.receiver === 'object' ? (data.receiver as Record<string, unknown>) : null;
  const id = receiver ? Number(receiver.id) : NaN;
  if (!receiver || !Number.isFinite(id)) return { rows, changedId: null };
  const index = rows.findIndex((r) => r.id === id);
  if (index === -1) return { rows, changedId: null };
  const next: PhoneNumberRow = { ...rows[index]! };
  const patch = next as unknown as Record<string, unknown>;
  for (const field of FIELDS) if (field in receiver) patch[field] = receiver[field];
  if (typeof receiver.reason === 'string' && msg.event === 'opt_out') next.opt_out_reason = receiver.reason;
  const out = rows.slice();
  out[index] = next;
  return { rows: out, changedId: id };
}
