import type { generators } from '../db/schema';
import type { WhatsappRow } from '../whatsapp/view';
import { jobAccountView, jobCountsData, jobSettingsData } from '../engine/jobs/view';

export type GeneratorRow = typeof generators.$inferSelect;

/** A generator's own fields (spec 3 names), as both the API and live events carry them. */
export function generatorData(row: GeneratorRow) {
  return {
    id: row.id,
    job: 'generator' as const,
    user_id: row.userId,
    start_number: row.startNumber,
    end_number: row.endNumber,
    current_number: row.currentNumber,
    ...jobSettingsData(row),
    ...jobCountsData(row),
  };
}

export function generatorView(row: GeneratorRow, account: WhatsappRow | null | undefined) {
  return { ...generatorData(row), createdAt: row.createdAt, Whatsapp: jobAccountView(account) };
}
