import type Database from 'better-sqlite3';
import { DEFAULT_COUNTRY, isSupportedCountry, normalizePhone } from '../../../../common/phone';
import type { ImportRecord } from '../../lib/rows';
import { NumberSet } from '../../phonenumbers/number-set';
import { SKIP_REASONS } from '../../phonenumbers/import-types';

/** 'Kode Negara Default' read on the import's own connection. */
function defaultCountryOf(c: Database.Database): string {
  const row = c.prepare('SELECT default_country AS c FROM settings WHERE id = 1').get() as { c: string } | undefined;
  return row && isSupportedCountry(row.c) ? row.c : DEFAULT_COUNTRY;
}

const MAX_TEXT = 200;
/** Rows still open to the list checks: a repeat of a number that is opted out or already listed reports that instead. */
const OPEN = `(reason IS NULL OR reason = '${SKIP_REASONS.repeated}')`;
const INSERT_CHUNK = 250;
let sequence = 0;

/**
 * The staging table of one import, in the connection's temp database (never seen by other
 * connections, dropped at the end). Rows are appended in file order (`seq`) and classified with
 * set-based statements, so the per-row work in JavaScript is only the normalising.
 */
export class ImportStaging {
  readonly table: string;
  private readonly qualified: string;
  private seq = 0;
  private readonly insertChunk: Database.Statement;
  private readonly classifyBatch: Database.Statement[];
  private readonly seen = new NumberSet();

  constructor(private readonly c: Database.Database) {
    this.table = `pn_import_${process.pid}_${++sequence}`;
    this.qualified = `temp.${this.table}`;
    c.exec(`CREATE TABLE ${this.qualified} (seq INTEGER PRIMARY KEY, number TEXT NOT NULL, name TEXT NOT NULL, line_type TEXT, reason TEXT, ref_id INTEGER, ref_status TEXT)`);
    this.insertChunk = this.insertMany(INSERT_CHUNK);
    const t = this.table;
    this.classifyBatch = [
      c.prepare(
        `UPDATE ${this.qualified} SET reason = '${SKIP_REASONS.optedOut}', ref_status = 'nonactive',
           ref_id = (SELECT p.id FROM main.phone_numbers p WHERE p.number = ${t}.number)
         WHERE seq BETWEEN @from AND @to AND ${OPEN} AND number IN (SELECT number FROM main.opt_outs)`,
      ),
      c.prepare(
        `UPDATE ${this.qualified} SET reason = '${SKIP_REASONS.existing}', ref_id = p.id, ref_status = p.status FROM main.phone_numbers p
         WHERE ${t}.seq BETWEEN @from AND @to AND ${OPEN} AND p.number = ${t}.number`,
      ),
    ];
  }

  private insertMany(n: number): Database.Statement {
    return this.c.prepare(`INSERT INTO ${this.qualified} (seq, number, name, line_type, reason) VALUES ${Array.from({ length: n }, () => '(?, ?, ?, ?, ?)').join(', ')}`);
  }

  get rows(): number {
    return this.seq;
  }

  /** Appends a batch in one transaction and marks invalid, opted-out and already-listed rows. */
  add(batch: ImportRecord[]): void {
    this.c.transaction(() => {
      const from = this.seq + 1;
      const country = defaultCountryOf(this.c);
      const values: Array<string | number | null> = [];
      for (const record of batch) {
        const name = (record.name ?? '').slice(0, MAX_TEXT);
        const phone = normalizePhone(record.number ?? '', country);
        this.seq += 1;
        // Later occurrences of a number are repeats (the list checks below may still re-mark them).
        if (phone.ok) values.push(this.seq, phone.number, name, phone.lineType, this.seen.add(phone.number) ? null : SKIP_REASONS.repeated);
        else values.push(this.seq, (record.number ?? '').slice(0, MAX_TEXT), name, null, SKIP_REASONS.invalid);
      }
      const width = INSERT_CHUNK * 5;
      const full = Math.floor(batch.length / INSERT_CHUNK);
      for (let i = 0; i < full; i++) this.insertChunk.run(values.slice(i * width, (i + 1) * width));
      if (batch.length > full * INSERT_CHUNK) this.insertMany(batch.length - full * INSERT_CHUNK).run(values.slice(full * width));
      for (const statement of this.classifyBatch) statement.run({ from, to: this.seq });
    })();
  }

  /**
   * Indexes the rows still to insert by number, once after loading (a sort, far cheaper than
   * keeping it up to date row by row): the final insert then walks them in number order, reading
   * the index alone (it covers number, name and line type). The rows it holds are distinct by construction.
   */
  indexPending(): void {
    this.c.exec(`CREATE INDEX temp.${this.table}_number ON ${this.table} (number, name, line_type) WHERE reason IS NULL`);
  }

  pending(): number {
    return (this.c.prepare(`SELECT count(*) AS n FROM ${this.qualified} WHERE reason IS NULL`).get() as { n: number }).n;
  }

  /**
   * Inserts the rows still unclassified into phone_numbers (call inside the final transaction).
   * Rows opted out or added by someone else since they were staged are left out and re-marked.
   */
  merge(pending: number): number {
    const c = this.c;
    const t = this.table;
    const before = (c.prepare('SELECT coalesce(max(id), 0) AS m FROM main.phone_numbers').get() as { m: number }).m;
    // In number order: the unique index then grows from left to right instead of at random.
    const { changes } = c
      .prepare(
        `INSERT INTO main.phone_numbers (number, name, line_type) SELECT number, name, line_type FROM ${this.qualified} s INDEXED BY ${t}_number
         WHERE reason IS NULL AND NOT EXISTS (SELECT 1 FROM main.opt_outs o WHERE o.number = s.number)
         ORDER BY number ON CONFLICT (number) DO NOTHING`,
      )
      .run();
    if (changes !== pending) {
      c.prepare(`UPDATE ${this.qualified} SET reason = ?, ref_status = 'nonactive' WHERE reason IS NULL AND number IN (SELECT number FROM main.opt_outs)`).run(
        SKIP_REASONS.optedOut,
      );
      c.prepare(
        `UPDATE ${this.qualified} SET reason = ?, ref_id = p.id, ref_status = p.status FROM main.phone_numbers p
         WHERE ${t}.reason IS NULL AND p.number = ${t}.number AND p.id <= ?`,
      ).run(SKIP_REASONS.existing, before);
    }
    return changes;
  }

  skippedCount(): number {
    return (this.c.prepare(`SELECT count(*) AS n FROM ${this.qualified} WHERE reason IS NOT NULL`).get() as { n: number }).n;
  }

  /** Up to `limit` skipped rows after `afterSeq`, in file order. */
  skippedAfter(afterSeq: number, limit: number): Array<{ seq: number; id: number | null; number: string; name: string; status: string; reason: string }> {
    return this.c
      .prepare(
        `SELECT seq, ref_id AS id, number, name, coalesce(ref_status, '') AS status, reason FROM ${this.qualified}
         WHERE reason IS NOT NULL AND seq > ? ORDER BY seq LIMIT ?`,
      )
      .all(afterSeq, limit) as Array<{ seq: number; id: number | null; number: string; name: string; status: string; reason: string }>;
  }

  drop(): void {
    if (this.c.open) this.c.exec(`DROP TABLE IF EXISTS ${this.qualified}`);
  }
}
