import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type pg from 'pg';
import type { Db } from '../client';
import type { PgDb } from '../postgres';
import { countryOr, normalizePhone } from '../../../../common/phone';
import { readImportRows, type ImportRecord } from '../../lib/rows';
import { NumberSet } from '../../phonenumbers/number-set';
import { writeSkippedFiles, type SkippedRow } from '../../phonenumbers/skipped';
import { ImportAborted, INLINE_ROWS, SKIP_REASONS, type ImportResult } from '../../phonenumbers/import-types';
import { NUMBER_ALIASES, rowFromRaw, rowView, type PhoneNumberRaw } from '../../phonenumbers/view';
import type { ImportOptions } from '../sqlite/import';
import { FORGET_LISTED, REMOVED_LAST_SENT } from '../../phonenumbers/removed-sql';

const MAX_TEXT = 200;
/** Longest stretch of JavaScript work (normalising a batch) before the event loop gets a turn. */
const SLICE_MS = 10;
/** Rows normalised between two looks at the clock. */
const SLICE_ROWS = 500;
/** Skipped rows read and written out at a time. */
const SKIPPED_PAGE = 2000;
/**
 * File bytes parsed in one synchronous step: a quarter of the default, since here the parsing shares
 * the server's thread (a 256 KiB JSON chunk takes 20-40 ms on a busy machine, the first one more).
 */
const CHUNK_BYTES = 64 * 1024;
let sequence = 0;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A value in COPY's text format: NULL as \N; backslash, tab, newline and carriage return escaped. */
const copyText = (value: string | null) => (value === null ? '\\N' : value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')));

/** PostgreSQL text cannot hold NUL characters; SQLite keeps them. The rest is cut as on SQLite. */
const text = (value: string) => (value.includes('\0') ? value.replace(/\0/g, '') : value).slice(0, MAX_TEXT);

type SkippedWithSeq = SkippedRow & { seq: number };

/**
 * Imports a phone-number file into PostgreSQL with the SQLite import's behaviour and answer
 * (../sqlite/import-run.ts). The file is parsed on this thread in batches, each batch normalised in
 * slices of at most ~10 ms with a turn of the event loop in between; a batch goes into a TEMP staging
 * table of one pooled connection held for the whole import through COPY, and once the file is read one
 * UPDATE classifies the staged rows (opted out, already in the list) against the live tables.
 * Then ONE transaction on that connection moves the rows still unclassified into phone_numbers
 * (INSERT … SELECT … ON CONFLICT DO NOTHING, one statement, so the statement triggers of
 * drizzle/pg/0001 count it at once) and re-marks rows that someone else added or opted out meanwhile.
 * Until it commits nothing is visible; a failure or an abort rolls it back.
 */
export async function importPhoneFile(db: Db, file: string, kind: 'csv' | 'json', options: ImportOptions): Promise<ImportResult> {
  if (options.signal?.aborted) throw new ImportAborted();
  const client = await (db as unknown as PgDb).$client.connect();
  const table = `pn_import_${process.pid}_${++sequence}`;
  let broken: Error | undefined;
  // The connection is held across turns of the event loop: a connection lost while no query runs
  // would otherwise be an unhandled 'error' event. The next query fails and ends the import.
  const lost = (err: Error) => (broken = err);
  // Cancel requests sent for this connection: all answered before it goes back to the pool, so none
  // can reach the next borrower's statement.
  const cancels: Array<Promise<unknown>> = [];
  client.on('error', lost);
  try {
    await client.query(`CREATE TEMP TABLE ${table} (seq integer NOT NULL, number text NOT NULL, name text NOT NULL, line_type text, reason text, ref_id integer, ref_status text)`);
    return await runImport(db, client, cancels, table, file, kind, options);
  } finally {
    // Every query is awaited before the next step, so none is running here. A connection that cannot
    // even drop the table is closed instead of going back to the pool (its temp table goes with it).
    await Promise.all(cancels);
    if (!broken) await client.query(`DROP TABLE IF EXISTS ${table}`).catch((err: Error) => (broken = err));
    client.removeListener('error', lost);
    client.release(broken);
  }
}

async function runImport(db: Db, client: pg.PoolClient, cancels: Array<Promise<unknown>>, table: string, file: string, kind: 'csv' | 'json', options: ImportOptions): Promise<ImportResult> {
  const check = () => {
    if (options.signal?.aborted) throw new ImportAborted();
  };
  const staging = new Staging(client, table);
  let bytes = 0;
  const reader = readImportRows(file, kind, { columns: ['number', 'name'], aliases: NUMBER_ALIASES, batchSize: options.batchSize, chunkBytes: CHUNK_BYTES, onProgress: (b) => (bytes = b) });
  for await (const batch of reader) {
    check();
    await staging.add(batch, check);
    options.onProgress?.({ phase: 'reading', rows: staging.rows, bytes });
    await turn();
  }
  check();
  options.onProgress?.({ phase: 'checking', rows: staging.rows, bytes });
  const pending = await staging.prepare();
  check();
  options.onProgress?.({ phase: 'saving', rows: staging.rows, bytes });

  // Leaving during the final transaction cancels its running statement (the insert of a large file
  // takes seconds) instead of waiting for it to end before the rollback.
  const pool = (db as unknown as PgDb).$client;
  const pid = (client as unknown as { processID: number | null }).processID;
  const cancel = () => cancels.push(pool.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined));
  if (pid !== null) options.signal?.addEventListener('abort', cancel, { once: true });
  let merged: Awaited<ReturnType<Staging['merge']>>;
  try {
    merged = await staging.merge(pending, check);
  } catch (err) {
    // A statement cancelled because the client left is that abort, not a failure.
    if (options.signal?.aborted) throw new ImportAborted();
    throw err;
  } finally {
    options.signal?.removeEventListener('abort', cancel);
  }

  const strip = ({ seq: _seq, ...row }: SkippedWithSeq): SkippedRow => row;
  const skippedCount = await staging.skippedCount();
  const skipped = (await staging.skippedAfter(0, INLINE_ROWS)).map(strip);
  let skippedFile: string | null = null;
  if (skippedCount > INLINE_ROWS) {
    skippedFile = crypto.randomBytes(16).toString('hex');
    await writeSkippedFiles(options.skippedDir, skippedFile, async (after) => {
      const rows = await staging.skippedAfter(after, SKIPPED_PAGE);
      return rows.length ? { rows: rows.map(strip), lastKey: rows[rows.length - 1]!.seq } : null;
    });
  }
  return { ...merged, skipped, skippedCount, skippedFile };
}

/** The staging table of one import: a TEMP table of the import's own connection. */
class Staging {
  private seq = 0;
  private readonly seen = new NumberSet();

  constructor(
    private readonly c: pg.PoolClient,
    private readonly table: string,
  ) {}

  get rows(): number {
    return this.seq;
  }

  /**
   * Normalises a batch (in time slices) and appends it with COPY; prepare() then marks the rows opted
   * out or already listed (a repeat of such a number reports that instead of the repeat).
   */
  async add(batch: ImportRecord[], check: () => void): Promise<void> {
    const country = await this.defaultCountry();
    const seqs: number[] = [];
    const numbers: string[] = [];
    const names: string[] = [];
    const reasons: Array<string | null> = [];
    const types: Array<string | null> = [];
    let sliceStart = performance.now();
    for (let i = 0; i < batch.length; i++) {
      if (i % SLICE_ROWS === 0 && performance.now() - sliceStart > SLICE_MS) {
        await turn();
        check();
        sliceStart = performance.now();
      }
      const record = batch[i]!;
      const phone = normalizePhone(record.number ?? '', country);
      this.seq += 1;
      seqs.push(this.seq);
      names.push(text(record.name ?? ''));
      if (phone.ok) {
        numbers.push(phone.number);
        types.push(phone.lineType);
        // Later occurrences of a number are repeats (the list checks may still re-mark them).
        reasons.push(this.seen.add(phone.number) ? null : SKIP_REASONS.repeated);
      } else {
        numbers.push(text(record.number ?? ''));
        types.push(null);
        reasons.push(SKIP_REASONS.invalid);
      }
    }
    const lines: string[] = [];
    for (let i = 0; i < seqs.length; i++) lines.push(`${seqs[i]}\t${copyText(numbers[i]!)}\t${copyText(names[i]!)}\t${copyText(types[i] ?? null)}\t${copyText(reasons[i] ?? null)}\n`);
    await pipeline(Readable.from([lines.join('')]), this.c.query(copyFrom(`COPY ${this.table} (seq, number, name, line_type, reason) FROM STDIN`)));
  }

  /** 'Kode Negara Default', read per batch as the SQLite import does. */
  private async defaultCountry(): Promise<string> {
    const { rows } = await this.c.query<{ c: string }>('SELECT default_country AS c FROM settings WHERE id = 1');
    const country = rows[0]?.c;
    return countryOr(country);
  }

  /**
   * Once the staging table is loaded: gives the planner its statistics (temp tables are never analysed
   * automatically), marks the rows opted out or already listed in one statement, indexes the skipped
   * rows by file order (for their pages) and counts the rows still to insert; they are distinct numbers
   * by construction.
   */
  async prepare(): Promise<number> {
    await this.c.query(`ANALYZE ${this.table}`);
    // Rows opted out or already listed, the repeats of such numbers included, say so (opted out first);
    // invalid rows keep their reason.
    await this.c.query(
      `UPDATE ${this.table} s SET reason = CASE WHEN m.opted THEN $2 ELSE $3 END, ref_id = m.pid, ref_status = CASE WHEN m.opted THEN 'nonactive' ELSE m.pstatus END
       FROM (SELECT u.seq, o.number IS NOT NULL AS opted, p.id AS pid, p.status AS pstatus FROM ${this.table} u
             LEFT JOIN opt_outs o ON o.number = u.number LEFT JOIN phone_numbers p ON p.number = u.number
             WHERE u.reason IS DISTINCT FROM $1 AND (o.number IS NOT NULL OR p.id IS NOT NULL)) m
       WHERE s.seq = m.seq`,
      [SKIP_REASONS.invalid, SKIP_REASONS.optedOut, SKIP_REASONS.existing],
    );
    await this.c.query(`CREATE INDEX ${this.table}_skipped ON ${this.table} (seq) WHERE reason IS NOT NULL`);
    const { rows } = await this.c.query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${this.table} WHERE reason IS NULL`);
    return rows[0]!.n;
  }

  /**
   * The final transaction: inserts the rows still unclassified into phone_numbers in one statement,
   * re-marks rows opted out or added by someone else since they were staged, and reads the first
   * created rows. The suppression list is locked against writes (SHARE) for its duration, so an
   * opt-out either commits before the insert checks it or runs after the commit and finds the new
   * row to make nonactive: an opted-out number is never imported.
   */
  async merge(pending: number, check: () => void): Promise<{ created: ImportResult['created']; createdCount: number }> {
    // The numbers already listed were set aside by prepare(), so a plain insert (one look into the unique
    // index per row, where ON CONFLICT takes two) fails only when someone added one of them since; then
    // the transaction is run again with ON CONFLICT DO NOTHING.
    try {
      return await this.mergeOnce(pending, check, false);
    } catch (err) {
      if ((err as { code?: string }).code !== '23505') throw err;
      check();
      return this.mergeOnce(pending, check, true);
    }
  }

  private async mergeOnce(pending: number, check: () => void, careful: boolean): Promise<{ created: ImportResult['created']; createdCount: number }> {
    const c = this.c;
    const t = this.table;
    await c.query('BEGIN');
    try {
      await c.query('LOCK TABLE opt_outs IN SHARE MODE');
      const before = (await c.query<{ m: number }>('SELECT coalesce(max(id), 0)::bigint AS m FROM phone_numbers')).rows[0]!.m;
      check();
      // In number order: the unique index then grows from left to right instead of at random.
      // A number deleted from the list and now imported again keeps its recipient cooldown (rarely any).
      const removed = (await c.query('SELECT 1 FROM removed_recipients LIMIT 1')).rowCount !== 0;
      const inserted = await c.query(
        `INSERT INTO phone_numbers (number, name, line_type${removed ? ', last_sent' : ''})
         SELECT number, name, line_type${removed ? `, ${REMOVED_LAST_SENT('s.number')}` : ''} FROM ${t} s
         WHERE reason IS NULL AND NOT EXISTS (SELECT 1 FROM opt_outs o WHERE o.number = s.number)
         ORDER BY number${careful ? ' ON CONFLICT (number) DO NOTHING' : ''}`,
      );
      if (removed) await c.query(FORGET_LISTED());
      const createdCount = inserted.rowCount ?? 0;
      if (createdCount !== pending) {
        await c.query(`UPDATE ${t} SET reason = $1, ref_status = 'nonactive' WHERE reason IS NULL AND number IN (SELECT number FROM opt_outs)`, [
          SKIP_REASONS.optedOut,
        ]);
        // Rows this transaction did not write (xmin) were there first: someone added them meanwhile.
        await c.query(
          `UPDATE ${t} s SET reason = $1, ref_id = p.id, ref_status = p.status FROM phone_numbers p
           WHERE s.reason IS NULL AND p.number = s.number AND p.xmin <> pg_current_xact_id()::xid`,
          [SKIP_REASONS.existing],
        );
      }
      // Every id this transaction drew is above `before`; other writers' rows there are told apart by xmin.
      const created = await c.query<PhoneNumberRaw>(
        'SELECT * FROM phone_numbers WHERE id > $1 AND xmin = pg_current_xact_id()::xid ORDER BY id LIMIT $2',
        [before, INLINE_ROWS],
      );
      // The last moment to leave: throwing here rolls the whole merge back.
      check();
      await c.query('COMMIT');
      return { created: created.rows.map((r) => rowView(rowFromRaw(r), null)), createdCount };
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  async skippedCount(): Promise<number> {
    return (await this.c.query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${this.table} WHERE reason IS NOT NULL`)).rows[0]!.n;
  }

  /** Up to `limit` skipped rows after `afterSeq`, in file order. */
  async skippedAfter(afterSeq: number, limit: number): Promise<SkippedWithSeq[]> {
    const { rows } = await this.c.query<SkippedWithSeq>(
      `SELECT seq, ref_id AS id, number, name, coalesce(ref_status, '') AS status, reason FROM ${this.table}
       WHERE reason IS NOT NULL AND seq > $1 ORDER BY seq LIMIT $2`,
      [afterSeq, limit],
    );
    return rows;
  }
}
