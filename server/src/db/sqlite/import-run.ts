import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import { readImportRows } from '../../lib/rows';
import { writeSkippedFiles, type SkippedRow } from '../../phonenumbers/skipped';
import { ImportAborted, INLINE_ROWS, type ImportProgress, type ImportResult } from '../../phonenumbers/import-types';
import { NUMBER_ALIASES, rowFromRaw, rowView, type PhoneNumberRaw } from '../../phonenumbers/view';
import { ImportStaging } from './import-staging';

export interface RunOptions {
  batchSize?: number;
  /** Where the skipped-list files go (DATA_DIR/tmp/skipped). */
  skippedDir: string;
  onProgress?: (p: ImportProgress) => void;
  /** Asked between steps and once more before the commit; true rolls everything back. */
  aborted: () => boolean;
  /**
   * Resolves when the connection may run the next synchronous step: on a connection the server shares,
   * once no other caller's transaction is open (the import's own steps are short transactions).
   */
  connectionFree: () => Promise<void>;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Imports a phone-number file on connection `c`. Rows stream from disk into a staging table in
 * batched transactions and are classified there (invalid, opted out, already in the list, repeated
 * in the file); then ONE immediate transaction moves the new rows into `phone_numbers`. Until it
 * commits nothing is visible; a failure or an abort anywhere leaves the table exactly as it was.
 */
export async function runImport(c: Database.Database, file: string, kind: 'csv' | 'json', options: RunOptions): Promise<ImportResult> {
  await options.connectionFree();
  const staging = new ImportStaging(c);
  const check = () => {
    if (options.aborted()) throw new ImportAborted();
  };
  try {
    let bytes = 0;
    const reader = readImportRows(file, kind, {
      columns: ['number', 'name'],
      aliases: NUMBER_ALIASES,
      batchSize: options.batchSize,
      // 64 KB read and parsed at a time: each chunk's text and rows then die young instead of
      // piling up in the old generation (V8 allocates a string over 128 KB there directly).
      chunkBytes: 64 * 1024,
      onProgress: (b) => (bytes = b),
    });
    for await (const batch of reader) {
      check();
      await options.connectionFree();
      staging.add(batch);
      options.onProgress?.({ phase: 'reading', rows: staging.rows, bytes });
      await turn();
    }
    check();
    options.onProgress?.({ phase: 'checking', rows: staging.rows, bytes });
    await options.connectionFree();
    staging.indexPending();
    check();
    await options.connectionFree();
    staging.classify();
    check();
    const pending = staging.pending();
    options.onProgress?.({ phase: 'saving', rows: staging.rows, bytes });

    await options.connectionFree();
    const merged = c
      .transaction(() => {
        const before = (c.prepare('SELECT coalesce(max(id), 0) AS m FROM main.phone_numbers').get() as { m: number }).m;
        const createdCount = staging.merge(pending);
        // The last moment to leave: throwing here rolls the whole merge back.
        check();
        const created = c.prepare('SELECT * FROM main.phone_numbers WHERE id > ? ORDER BY id LIMIT ?').all(before, INLINE_ROWS) as PhoneNumberRaw[];
        return { created: created.map((r) => rowView(rowFromRaw(r), null)), createdCount };
      })
      .immediate();

    const strip = ({ seq: _seq, ...row }: SkippedRow & { seq: number }): SkippedRow => row;
    await options.connectionFree();
    const skippedCount = staging.skippedCount();
    const skipped = staging.skippedAfter(0, INLINE_ROWS).map(strip);
    let skippedFile: string | null = null;
    if (skippedCount > INLINE_ROWS) {
      skippedFile = crypto.randomBytes(16).toString('hex');
      await writeSkippedFiles(options.skippedDir, skippedFile, async (after) => {
        await options.connectionFree();
        const rows = staging.skippedAfter(after, 5000);
        return rows.length ? { rows, lastKey: rows[rows.length - 1]!.seq } : null;
      });
    }
    return { ...merged, skipped, skippedCount, skippedFile };
  } finally {
    await options.connectionFree();
    staging.drop();
  }
}
