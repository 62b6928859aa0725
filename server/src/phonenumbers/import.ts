import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
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
  phase: 'reading' | 'checking' | 'saving';
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

const importsRunning = new WeakMap<Database.Database, { count: number; main: number; temp: number }>();

/**
 * Room for the staging table and the number index while an import runs (128 MB + 96 MB of page
 * cache), back to the connection's own sizes when the last running import ends.
 */
function raiseCaches(c: Database.Database): () => void {
  const running = importsRunning.get(c);
  if (running) running.count += 1;
  else {
    importsRunning.set(c, { count: 1, main: c.pragma('cache_size', { simple: true }) as number, temp: c.pragma('temp.cache_size', { simple: true }) as number });
    c.pragma('cache_size = -131072');
    c.pragma('temp.cache_size = -98304');
  }
  let done = false;
  return () => {
    const state = importsRunning.get(c);
    if (done || !state) return;
    done = true;
    state.count -= 1;
    if (state.count > 0) return;
    importsRunning.delete(c);
    if (c.open) {
      c.pragma(`cache_size = ${state.main}`);
      c.pragma(`temp.cache_size = ${state.temp}`);
    }
  };
}

/**
 * Imports a phone-number file. Rows stream from disk into a staging table in batched transactions
 * and are classified there (invalid, opted out, already in the list, repeated in the file); then ONE
 * transaction moves the new rows into `phone_numbers`. Until that transaction commits nothing is
 * visible, and a failure anywhere leaves the table exactly as it was.
 */
export async function importPhoneNumbers(db: Db, file: string, kind: 'csv' | 'json', options: ImportOptions): Promise<ImportResult> {
  const c = db.$client;
  const staging = new ImportStaging(c);
  const restoreCaches = raiseCaches(c);
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
    options.onProgress?.({ phase: 'checking', rows: staging.rows, bytes });
    await staging.markRepeats();
    const pending = staging.pending();
    options.onProgress?.({ phase: 'saving', rows: staging.rows, bytes });

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
    restoreCaches();
  }
}
