import type { HttpError } from '../../lib/errors';
import type { ImportProgress, ImportResult } from '../../phonenumbers/import-types';

/** What the server hands an import worker. */
export interface WorkerJob {
  dbFile: string;
  file: string;
  kind: 'csv' | 'json';
  skippedDir: string;
  batchSize?: number;
  /** One Int32: the server stores 1 to cancel. */
  flag: SharedArrayBuffer;
}

/** What an import worker answers, in order: progress…, then exactly one of the rest. */
export type WorkerMessage =
  | { type: 'progress'; progress: ImportProgress }
  | { type: 'done'; result: ImportResult }
  | { type: 'aborted' }
  | { type: 'refused'; status: number; msg: string; extra: HttpError['extra'] }
  | { type: 'failed'; message: string };
