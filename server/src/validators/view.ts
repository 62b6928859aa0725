import type { validators } from '../db/schema';
import type { WhatsappRow } from '../whatsapp/view';
import { jobAccountView, jobCountsData, jobSettingsData } from '../engine/jobs/view';

export type ValidatorRow = typeof validators.$inferSelect;

/** A validator's own fields (spec 3 names), as both the API and live events carry them. */
export function validatorData(row: ValidatorRow) {
  return {
    id: row.id,
    job: 'validator' as const,
    user_id: row.userId,
    ...jobSettingsData(row),
    fileName: row.fileName,
    fileUrl: row.fileUrl,
    ...jobCountsData(row),
  };
}

export function validatorView(row: ValidatorRow, account: WhatsappRow | null | undefined) {
  return { ...validatorData(row), createdAt: row.createdAt, Whatsapp: jobAccountView(account) };
}
