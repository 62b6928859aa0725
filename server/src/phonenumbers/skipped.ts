import fs from 'node:fs';
import { privateDir, privateFile } from '../lib/paths';
import path from 'node:path';
import { once } from 'node:events';
import { streamRowsTo, type ExportFormat } from '../lib/csv';
import { HttpError } from '../lib/errors';
import { removeOldFiles } from '../lib/upload';

export interface SkippedRow {
  id: number | null;
  number: string;
  name: string;
  status: string;
  reason: string;
}

/** How long a skipped-list download stays available after its import. */
export const SKIPPED_FILE_TTL_MS = 60 * 60 * 1000;

const SHAPE: ExportFormat<SkippedRow> = {
  header: ['number', 'name', 'status', 'reason'],
  cells: (r) => [r.number, r.name, r.status, r.reason],
  json: (r) => ({ id: r.id, number: r.number, name: r.name, status: r.status, reason: r.reason }),
};

/** Removes skipped-list files older than the TTL. */
export function removeOldSkippedFiles(dir: string, now = Date.now()): void {
  removeOldFiles(dir, SKIPPED_FILE_TTL_MS, now);
}

/**
 * Writes `{token}.csv` and `{token}.json` page by page in one pass (each page is read once and
 * written to both), never holding the whole list.
 */
export async function writeSkippedFiles(
  dir: string,
  token: string,
  nextPage: (after: number) => Promise<{ rows: SkippedRow[]; lastKey: number } | null> | { rows: SkippedRow[]; lastKey: number } | null,
): Promise<void> {
  privateDir(path.dirname(dir));
  privateDir(dir);
  removeOldSkippedFiles(dir);
  const csv = fs.createWriteStream(path.join(dir, `${token}.csv`), { mode: 0o600 });
  const json = fs.createWriteStream(path.join(dir, `${token}.json`), { mode: 0o600 });
  try {
    await streamRowsTo(
      [
        { out: csv, format: 'csv' },
        { out: json, format: 'json' },
      ],
      SHAPE,
      nextPage,
    );
  } finally {
    csv.end();
    json.end();
    await Promise.all([csv, json].map((out) => (out.closed ? undefined : once(out, 'close'))));
  }
  for (const format of ['csv', 'json']) privateFile(path.join(dir, `${token}.${format}`));
}

/** The file of a skipped list, or 404 when the token is unknown or expired. */
export function skippedFilePath(dir: string, token: string, format: 'csv' | 'json'): string {
  if (!/^[a-f0-9]{32}$/.test(token)) throw new HttpError(404, 'The skipped list is no longer available.');
  const file = path.join(dir, `${token}.${format}`);
  if (!fs.existsSync(file)) throw new HttpError(404, 'The skipped list is no longer available.');
  return file;
}
