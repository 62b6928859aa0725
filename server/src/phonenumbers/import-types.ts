import { INVALID_NUMBER } from '../../../common/phone';
import type { PhoneNumberView } from './view';
import type { SkippedRow } from './skipped';

/** Why an import row was not added, as its skipped list says. */
export const SKIP_REASONS = {
  existing: 'already in the list',
  repeated: 'repeated in the file',
  invalid: INVALID_NUMBER,
  optedOut: 'opted out',
} as const;

export interface ImportResult {
  /** The first created rows (all of them when there are at most INLINE_ROWS). */
  created: PhoneNumberView[];
  /** The first skipped rows, in file order (all of them when there are at most INLINE_ROWS). */
  skipped: SkippedRow[];
  createdCount: number;
  skippedCount: number;
  /** Download token of the whole skipped list when it is longer than the inline one. */
  skippedFile: string | null;
}

export interface ImportProgress {
  phase: 'reading' | 'checking' | 'saving';
  rows: number;
  bytes: number;
}

export const INLINE_ROWS = 1000;
export const IMPORT_ABORTED = 'The import was cancelled.';

export class ImportAborted extends Error {
  constructor() {
    super(IMPORT_ABORTED);
  }
}
