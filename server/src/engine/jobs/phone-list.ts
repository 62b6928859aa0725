import type { Db } from '../../db/client';
import { changes } from '../../db/raw';
import { phoneNumbers } from '../../db/schema';
import { optOutReason } from '../../phonenumbers/optout';
import { takeRemoved } from '../../phonenumbers/removed';
import { normalizePhone } from '../../../../common/phone';

export type PhoneListOutcome = 'added' | 'exists' | 'opted_out';

/**
 * 'Simpan ke dalam daftar': a registered number joins the phone-number list as an active number,
 * unless it is already there (left as it is) or on the suppression list (never added back). Runs
 * inside the caller's transaction `tx`.
 */
export async function addToPhoneList(tx: Db, number: string, name: string): Promise<PhoneListOutcome> {
  if ((await optOutReason(tx, number)) !== null) return 'opted_out';
  const phone = normalizePhone(`+${number}`);
  const res = await tx.insert(phoneNumbers).values({ number, name, lineType: phone.ok ? phone.lineType : 'other', lastSent: await takeRemoved(tx, number) }).onConflictDoNothing();
  return changes(res) > 0 ? 'added' : 'exists';
}
