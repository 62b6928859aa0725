import type { Db } from '../db/client';
import { importRows } from '../metrics/registry';
import { importPhoneFile, type ImportOptions } from '../db/phonelist';
import type { ImportResult } from './import-types';
import { scheduleIndexing } from './search';

export { SKIP_REASONS, IMPORT_ABORTED, ImportAborted, INLINE_ROWS, type ImportProgress, type ImportResult } from './import-types';
export type { ImportOptions };

const AFTER_ANSWER_MS = 250;

/**
 * Imports a phone-number file: rows stream from disk in batches and are classified (invalid, opted
 * out, already in the list, repeated in the file); then one transaction adds the new rows. Until it
 * commits nothing is visible; a failure or an abort (the client left) leaves the list as it was. The
 * store runs it without holding the server (on SQLite: a worker thread on its own connection).
 */
export async function importPhoneNumbers(db: Db, file: string, kind: 'csv' | 'json', options: ImportOptions): Promise<ImportResult> {
  const result = await importPhoneFile(db, file, kind, options);
  importRows.inc({ outcome: 'added' }, result.createdCount);
  importRows.inc({ outcome: 'skipped' }, result.skippedCount);
  // Folding the new rows into the figures and indexing them for search run in background steps,
  // started once the answer is on its way (reads and searches meanwhile count and scan them directly).
  if (result.createdCount > 0) setTimeout(() => void scheduleIndexing(db), AFTER_ANSWER_MS).unref();
  return result;
}
