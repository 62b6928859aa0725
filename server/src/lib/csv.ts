import type { Writable } from 'node:stream';

/**
 * One CSV cell: a value a spreadsheet would run as a formula (= + - @, tab, CR) gets a leading
 * quote, then the cell is quoted when it holds a delimiter, quote or line break.
 */
export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(values: unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** Writes and waits for the stream to drain when its buffer is full (backpressure). */
export function writeChunk(out: Writable, text: string): Promise<void> {
  if (out.write(text)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', closed);
      resolve();
    };
    const closed = () => {
      out.off('drain', done);
      reject(new Error('The output was closed'));
    };
    out.once('drain', done);
    out.once('close', closed);
  });
}

export interface ExportFormat<T> {
  header: string[];
  cells: (row: T) => unknown[];
  json: (row: T) => unknown;
}

type NextPage<T> = (afterKey: number) => Promise<{ rows: T[]; lastKey: number } | null> | { rows: T[]; lastKey: number } | null;

/** One output of `streamRowsTo` and the format it is written in. */
export interface RowTarget {
  out: Writable;
  format: 'csv' | 'json';
}

/**
 * Streams rows as CSV or a JSON array, fetching them page by page (keyset), so an export of
 * millions of rows never sits in memory and no page keeps the event loop more than a moment.
 */
export function streamRows<T>(out: Writable, format: 'csv' | 'json', shape: ExportFormat<T>, nextPage: NextPage<T>): Promise<void> {
  return streamRowsTo([{ out, format }], shape, nextPage);
}

/** `streamRows` to several outputs at once: each page is fetched once and written to every one. */
export async function streamRowsTo<T>(targets: RowTarget[], shape: ExportFormat<T>, nextPage: NextPage<T>): Promise<void> {
  const first = targets.map(() => true);
  await Promise.all(targets.map((t) => writeChunk(t.out, t.format === 'csv' ? csvLine(shape.header) : '[')));
  let key = 0;
  for (;;) {
    const page = await nextPage(key);
    if (!page || page.rows.length === 0) break;
    key = page.lastKey;
    await Promise.all(
      targets.map((t, i) => {
        let text = '';
        for (const row of page.rows) {
          if (t.format === 'csv') text += csvLine(shape.cells(row));
          else {
            text += `${first[i] ? '\n' : ',\n'}${JSON.stringify(shape.json(row))}`;
            first[i] = false;
          }
        }
        return writeChunk(t.out, text);
      }),
    );
    // A fast reader drains every write at once, so the loop would never leave this task: give
    // other requests their turn after each page.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await Promise.all(targets.map((t, i) => (t.format === 'json' ? writeChunk(t.out, first[i] ? ']' : '\n]') : undefined)));
}
