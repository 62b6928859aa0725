import type { Db, Tx } from '../../db/client';
import { phoneNumbers } from '../../db/schema';
import { optOutReasonSync } from '../../db/sqlite/phonenumbers';
import { normalizePhone } from '../../../../common/phone';

export type PhoneListOutcome = 'added' | 'exists' | 'opted_out';

/**
 * 'Simpan ke dalam daftar': a registered number joins the phone-number list as an active number,
 * unless it is already there (left as it is) or on the suppression list (never added back). Runs
 * inside the caller's transaction (`tx`, on the same connection as `db`).
 */
export function addToPhoneList(db: Db, tx: Tx, number: string, name: string): PhoneListOutcome {
  if (optOutReasonSync(db, number) !== null) return 'opted_out';
  const phone = normalizePhone(`+${number}`);
  const res = tx.insert(phoneNumbers).values({ number, name, lineType: phone.ok ? phone.lineType : 'other' }).onConflictDoNothing().run();
  return res.changes > 0 ? 'added' : 'exists';
}
