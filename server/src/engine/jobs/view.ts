import type { WhatsappRow } from '../../whatsapp/view';
import { jobProgress } from '../../../../common/jobs';
import type { JobRecord } from './types';

/** The nested account of a job row (spec 3: pushname, phonenumber, clientid, id), with its state. */
export function jobAccountView(account: WhatsappRow | null | undefined) {
  if (!account) return null;
  return { id: account.id, pushname: account.pushname, phonenumber: account.phonenumber, clientid: account.clientid, state: account.state };
}

/** The settings every job carries (spec 3 names): account, Simpan ke dalam daftar, intervals. */
export function jobSettingsData(row: JobRecord) {
  return {
    whatsapp_id: row.whatsappId,
    b_insert: row.bInsert,
    interval_min: row.intervalMin,
    interval_max: row.intervalMax,
  };
}

/** A job's counts, progress and run state (spec 3 names). */
export function jobCountsData(row: JobRecord) {
  return {
    total: row.total,
    checked: row.checked,
    count_success: row.countSuccess,
    count_fail: row.countFail,
    progress: jobProgress(row.checked, row.total),
    status: row.status,
    state: row.state,
  };
}
