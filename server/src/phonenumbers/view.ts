import type { PhoneNumberView } from '../../../common/phonenumber';
import type { phoneNumbers } from '../db/schema';

export type { PhoneNumberView };

/** A phone_numbers row as the store answers it through the table object. */
export type PhoneNumberRow = typeof phoneNumbers.$inferSelect;

/** A phone_numbers row as raw SQL on SQLite returns it. */
export interface PhoneNumberRaw {
  id: number;
  number: string;
  name: string;
  status: 'active' | 'nonactive';
  in_use: number;
  claimed_by: number | null;
  count_success: number;
  count_fail: number;
  last_sent: number | null;
  line_type: string | null;
  created_at: number;
  send_attempts: number;
  next_attempt_at: number | null;
  last_error: string | null;
  last_failed_at: number | null;
  failed_at: number | null;
}

export function rowFromRaw(raw: PhoneNumberRaw): PhoneNumberRow {
  return {
    id: raw.id,
    number: raw.number,
    name: raw.name,
    status: raw.status,
    inUse: raw.in_use,
    claimedBy: raw.claimed_by,
    countSuccess: raw.count_success,
    countFail: raw.count_fail,
    lastSent: raw.last_sent === null ? null : new Date(raw.last_sent),
    lineType: raw.line_type,
    createdAt: new Date(raw.created_at),
    sendAttempts: raw.send_attempts ?? 0,
    nextAttemptAt: raw.next_attempt_at ?? null,
    lastError: raw.last_error ?? null,
    lastFailedAt: raw.last_failed_at ?? null,
    failedAt: raw.failed_at ?? null,
  };
}

const isoOf = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function rowView(row: PhoneNumberRow, optOutReason: string | null): PhoneNumberView {
  return {
    id: row.id,
    number: row.number,
    name: row.name,
    // A number on the suppression list is nonactive whatever its row says.
    status: optOutReason ? 'nonactive' : row.status,
    in_use: row.inUse,
    count_success: row.countSuccess,
    count_fail: row.countFail,
    last_sent: row.lastSent === null ? null : row.lastSent.toISOString(),
    opt_out_reason: optOutReason,
    line_type: row.lineType,
    send_attempts: row.sendAttempts,
    last_error: row.lastError,
    last_failed_at: isoOf(row.lastFailedAt),
    next_attempt_at: isoOf(row.nextAttemptAt),
    failed_at: isoOf(row.failedAt),
  };
}

/** Header labels accepted for the columns of an import file. */
export const NUMBER_ALIASES: Record<string, string> = {
  phone: 'number',
  phonenumber: 'number',
  phone_number: 'number',
  'phone number': 'number',
  nomor: 'number',
  'nomor telepon': 'number',
  no: 'number',
  nama: 'name',
};
