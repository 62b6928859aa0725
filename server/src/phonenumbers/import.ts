import crypto from 'node:crypto';
import type { Db } from '../db/client';
import { readImportRows } from '../lib/rows';
import { scheduleIndexing } from './search';
import { writeSkippedFiles, type SkippedRow } from './skipped';
import { ImportStaging } from './staging';
import { NUMBER_ALIASES, rowView, type PhoneNumberRaw, type PhoneNumberView } from './view';

export { SKIP_REASONS } from './staging';

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
  phase: 'reading' | 'saving';
  rows: number;
  bytes: number;
}

export interface ImportOptions {
  batchSize?: number;
  /** Where the skipped-list files go (DATA_DIR/tmp/skipped). */
  skippedDir: string;
  onProgress?: (p: ImportProgress) => void;
}

export const INLINE_ROWS = 1000;

/**
 * Imports a phone-number file. Rows stream from disk into a staging table in batched transactions
 * and are classified there (invalid, opted out, already in the list, repeated in the file); then ONE
 * transaction moves the new rows into `phone_numbers`. Until that transaction commits nothing is
 * visible, and a failure anywhere leaves the table exactly as it was.
 */
export async function importPhoneNumbers(db: Db, file: string, kind: 'csv' | 'json', options: ImportOptions): Promise<ImportResult> {
  const c = db.$client;
  const tempCache = c.pragma('temp.cache_size', { simple: true }) as number;
  const mainCache = c.pragma('cache_size', { simple: true }) as number;
  // Room for the staging table and the number index while they are hot (restored afterwards).
  c.pragma('temp.cache_size = -98304');
  c.pragma('cache_size = -131072');
  const staging = new ImportStaging(c);
  try {
    let bytes = 0;
    const reader = readImportRows(file, kind, {
      columns: ['number', 'name'],
      aliases: NUMBER_ALIASES,
      batchSize: options.batchSize,
      onProgress: (b) => (bytes = b),
    });
    for await (const batch of reader) {
      staging.add(batch);
      options.onProgress?.({ phase: 'reading', rows: staging.rows, bytes });
    }
    options.onProgress?.({ phase: 'saving', rows: staging.rows, bytes });
    await staging.markRepeats();
    const pending = staging.pending();

    const merged = c.transaction(() => {
      const before = (c.prepare('SELECT coalesce(max(id), 0) AS m FROM phone_numbers').get() as { m: number }).m;
      const createdCount = staging.merge(pending);
      const created = c.prepare('SELECT * FROM phone_numbers WHERE id > ? ORDER BY id LIMIT ?').all(before, INLINE_ROWS) as PhoneNumberRaw[];
      return { created: created.map((r) => rowView(r, null)), createdCount };
    })();
    if (merged.createdCount > 0) scheduleIndexing(db);

    const strip = ({ seq: _seq, ...row }: SkippedRow & { seq: number }): SkippedRow => row;
    const skippedCount = staging.skippedCount();
    const skipped = staging.skippedAfter(0, INLINE_ROWS).map(strip);
    let skippedFile: string | null = null;
    if (skippedCount > INLINE_ROWS) {
      skippedFile = crypto.randomBytes(16).toString('hex');
      await writeSkippedFiles(options.skippedDir, skippedFile, (after) => {
        const rows = staging.skippedAfter(after, 5000);
        return rows.length ? { rows, lastKey: rows[rows.length - 1]!.seq } : null;
      });
    }
    return { ...merged, skipped, skippedCount, skippedFile };
  } finally {
    staging.drop();
    if (c.open) {
      c.pragma(`cache_size = ${mainCache}`);
      c.pragma(`temp.cache_size = ${tempCache}`);
    }
  }
}
