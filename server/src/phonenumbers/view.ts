import type { PhoneNumberView } from '../../../common/phonenumber';

export type { PhoneNumberView };

/** A phone_numbers row as SQLite returns it. */
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
}

export function rowView(raw: PhoneNumberRaw, optOutReason: string | null): PhoneNumberView {
  return {
    id: raw.id,
    number: raw.number,
    name: raw.name,
    // A number on the suppression list is nonactive whatever its row says.
    status: optOutReason ? 'nonactive' : raw.status,
    in_use: raw.in_use,
    count_success: raw.count_success,
    count_fail: raw.count_fail,
    last_sent: raw.last_sent === null ? null : new Date(raw.last_sent).toISOString(),
    opt_out_reason: optOutReason,
    line_type: raw.line_type,
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
