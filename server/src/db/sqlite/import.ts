import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { Db } from '../client';
import { serverEntry } from '../../lib/paths';
import { BUNDLE_ASSET, embeddedText, isEmbedded } from '../../lib/embedded';
import { gate } from '../gate';
import { HttpError } from '../../lib/errors';
import { ImportAborted, type ImportProgress, type ImportResult } from '../../phonenumbers/import-types';
import { runImport } from './import-run';
import type { WorkerJob, WorkerMessage } from './import-protocol';
import { clientOf } from './phonenumbers';

export interface ImportOptions {
  batchSize?: number;
  /** Where the skipped-list files go (DATA_DIR/tmp/skipped). */
  skippedDir: string;
  onProgress?: (p: ImportProgress) => void;
  /** Aborting rolls the import back (the client went away). */
  signal?: AbortSignal;
  /** Run on the calling thread even for a database file (tests of the in-process path). */
  inProcess?: boolean;
}

/**
 * The worker's young generation. At 8 MB a batch's rows outlived two scavenges and were promoted:
 * the old generation filled with them to ~50 MB between full collections (server peak 325–340 MB on
 * 1M rows). At 16 MB they die young (peak 285–295 MB), at no cost in time.
 */
const YOUNG_MB = 16;
const WORKER_SOURCE = 'server/src/db/sqlite/import-worker.ts';

/**
 * Imports a phone-number file into SQLite (see runImport). On a database file the import runs in a
 * worker thread with its own connection, so no step of it blocks the server; an in-memory database
 * (tests) cannot be shared with a worker and is imported on this thread, yielding between batches
 * and waiting for other callers' transactions (../gate) before each step.
 */
export async function importPhoneFile(db: Db, file: string, kind: 'csv' | 'json', options: ImportOptions): Promise<ImportResult> {
  if (options.signal?.aborted) throw new ImportAborted();
  const c = clientOf(db);
  return c.memory || options.inProcess ? importHere(c, file, kind, options) : importInWorker(c.name, file, kind, options);
}

async function importHere(c: Database.Database, file: string, kind: 'csv' | 'json', options: ImportOptions): Promise<ImportResult> {
  while (gate.blocked()) await gate.free();
  const restoreCaches = raiseCaches(c);
  try {
    return await runImport(c, file, kind, { ...options, aborted: () => options.signal?.aborted === true, connectionFree: () => gate.free() });
  } finally {
    while (gate.blocked()) await gate.free();
    restoreCaches();
  }
}

function importInWorker(dbFile: string, file: string, kind: 'csv' | 'json', options: ImportOptions): Promise<ImportResult> {
  const flag = new SharedArrayBuffer(4);
  const job: WorkerJob = { dbFile, file, kind, skippedDir: options.skippedDir, batchSize: options.batchSize, flag };
  const limits = { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB }, workerData: job };
  const worker = startWorker(limits);
  const cancel = () => Atomics.store(new Int32Array(flag), 0, 1);
  options.signal?.addEventListener('abort', cancel, { once: true });
  return new Promise<ImportResult>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', cancel);
      fn();
    };
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress') options.onProgress?.(m.progress);
      else if (m.type === 'done') settle(() => resolve(m.result));
      else if (m.type === 'aborted') settle(() => reject(new ImportAborted()));
      else if (m.type === 'refused') settle(() => reject(new HttpError(m.status, m.msg, m.extra)));
      else settle(() => reject(new Error(`Import failed: ${m.message}`)));
    });
    worker.on('error', (err) => settle(() => reject(err)));
    worker.on('exit', (code) => settle(() => reject(new Error(`The import worker stopped (exit ${code}) without an answer`))));
  });
}

/**
 * Inside the single executable the worker runs the embedded server bundle again, which starts the import
 * worker when it finds itself off the main thread (server/src/cli/bin.ts).
 */
function startWorker(options: { resourceLimits: { maxYoungGenerationSizeMb: number }; workerData: WorkerJob }): Worker {
  if (isEmbedded()) return new Worker(embeddedText(BUNDLE_ASSET), { eval: true, ...options });
  const file = serverEntry(WORKER_SOURCE);
  return file.endsWith('.ts') ? new Worker(tsBoot(file), { eval: true, ...options }) : new Worker(file, options);
}

/**
 * Under tsx (development, tests) a worker does not inherit the TypeScript loader: a small script
 * loads the worker's source through tsx's API. Compiled code starts the .js worker directly.
 */
function tsBoot(workerFile: string): string {
  // The ESM build of tsx's API (its CommonJS build cannot register the loader inside a worker).
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
  const api = pathToFileURL(path.join(path.dirname(pkg), 'dist/esm/api/index.mjs')).href;
  return `import(${JSON.stringify(api)}).then((m) => m.tsImport(${JSON.stringify(pathToFileURL(workerFile).href)}, ${JSON.stringify(import.meta.url)}))`;
}

const importsRunning = new WeakMap<Database.Database, { count: number; main: number; temp: number }>();

/**
 * Room for the staging table and the number index while an in-process import runs, back to the
 * connection's own sizes when the last running import ends.
 */
function raiseCaches(c: Database.Database): () => void {
  const running = importsRunning.get(c);
  if (running) running.count += 1;
  else {
    importsRunning.set(c, { count: 1, main: c.pragma('cache_size', { simple: true }) as number, temp: c.pragma('temp.cache_size', { simple: true }) as number });
    c.pragma('cache_size = -65536');
    c.pragma('temp.cache_size = -65536');
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
