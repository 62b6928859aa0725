import { jobProgress } from '../../../common/jobs';
import type { validators, whatsapps } from '../db/schema';
import { jobAccountView } from '../generators/view';

export type ValidatorRow = typeof validators.$inferSelect;
type AccountRow = typeof whatsapps.$inferSelect;

/** A validator's own fields (spec 3 names), as both the API and live events carry them. */
export function validatorData(row: ValidatorRow) {
  return {
    id: row.id,
    job: 'validator' as const,
    user_id: row.userId,
    whatsapp_id: row.whatsappId,
    b_insert: row.bInsert,
    interval_min: row.intervalMin,
    interval_max: row.intervalMax,
    fileName: row.fileName,
    fileUrl: row.fileUrl,
    total: row.total,
    checked: row.checked,
    count_success: row.countSuccess,
    count_fail: row.countFail,
    progress: jobProgress(row.checked, row.total),
    status: row.status,
    state: row.state,
  };
}

export function validatorView(row: ValidatorRow, account: AccountRow | null | undefined) {
  return { ...validatorData(row), createdAt: row.createdAt, Whatsapp: jobAccountView(account) };
}
