/**
 * Worker-thread entry of a phone-number import on a database file: the whole import (parsing,
 * staging, the final transaction) runs here on the worker's own connection, so the server's event
 * loop never waits for it. The server sets `flag[0]` to ask for a rollback (client gone).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { sqliteOptions } from './native';
import { HttpError } from '../../lib/errors';
import { ImportAborted } from '../../phonenumbers/import-types';
import { runImport } from './import-run';
import type { WorkerJob, WorkerMessage } from './import-protocol';

const job = workerData as WorkerJob;
const post = (m: WorkerMessage) => parentPort?.postMessage(m);
const flag = new Int32Array(job.flag);

async function main(): Promise<void> {
  const c = new Database(job.dbFile, sqliteOptions());
  try {
    c.pragma('foreign_keys = ON');
    // The final transaction may wait for the server's own writes; it never makes them fail.
    c.pragma('busy_timeout = 60000');
    c.pragma('synchronous = NORMAL');
    // Page caches for the number index (main) and the staging tables (temp), 8 MB each: the staging
    // tables are appended to and sorted once, the list's indexes grow in number order, so larger
    // caches cost RSS without saving time; the rest spills to temp files.
    c.pragma('cache_size = -8192');
    c.pragma('temp.cache_size = -8192');
    let last = 0;
    const result = await runImport(c, job.file, job.kind, {
      batchSize: job.batchSize,
      skippedDir: job.skippedDir,
      aborted: () => Atomics.load(flag, 0) === 1,
      // The connection is the worker's own.
      connectionFree: async () => undefined,
      onProgress: (p) => {
        const now = Date.now();
        if (p.phase === 'reading' && now - last < 100) return;
        last = now;
        post({ type: 'progress', progress: p });
      },
    });
    post({ type: 'done', result });
  } catch (err) {
    if (err instanceof ImportAborted) post({ type: 'aborted' });
    else if (err instanceof HttpError) post({ type: 'refused', status: err.status, msg: err.msg, extra: err.extra });
    else post({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  } finally {
    c.close();
  }
}

// Not a top-level await: the single executable's bundle is CommonJS. A connection that cannot open fails the same way.
main().catch((err: unknown) => post({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) }));
