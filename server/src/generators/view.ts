import { jobProgress } from '../../../common/jobs';
import type { generators, whatsapps } from '../db/schema';

export type GeneratorRow = typeof generators.$inferSelect;
type AccountRow = typeof whatsapps.$inferSelect;

/** The nested account of a job row (spec 3: pushname, phonenumber, clientid, id), with its state. */
export function jobAccountView(account: AccountRow | null | undefined) {
  if (!account) return null;
  return { id: account.id, pushname: account.pushname, phonenumber: account.phonenumber, clientid: account.clientid, state: account.state };
}

/** A generator's own fields (spec 3 names), as both the API and live events carry them. */
export function generatorData(row: GeneratorRow) {
  return {
    id: row.id,
    job: 'generator' as const,
    user_id: row.userId,
    start_number: row.startNumber,
    end_number: row.endNumber,
    current_number: row.currentNumber,
    whatsapp_id: row.whatsappId,
    b_insert: row.bInsert,
    interval_min: row.intervalMin,
    interval_max: row.intervalMax,
    total: row.total,
    checked: row.checked,
    count_success: row.countSuccess,
    count_fail: row.countFail,
    progress: jobProgress(row.checked, row.total),
    status: row.status,
    state: row.state,
  };
}

export function generatorView(row: GeneratorRow, account: AccountRow | null | undefined) {
  return { ...generatorData(row), createdAt: row.createdAt, Whatsapp: jobAccountView(account) };
}
