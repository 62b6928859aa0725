import type Database from 'better-sqlite3';
import { normalizePhone } from '../../../../common/phone';
import { defaultCountryOf } from './default-country';
import { prepareAlone } from './statements';
import type { ImportRecord } from '../../lib/rows';
import { NumberSet } from '../../phonenumbers/number-set';
import { SKIP_REASONS } from '../../phonenumbers/import-types';
import { FORGET_LISTED, REMOVED_LAST_SENT } from '../../phonenumbers/removed-sql';

/** The id of the listed row with that number (an SQL expression). */
const listed = (number: string) => `(SELECT p.id FROM main.phone_numbers p WHERE p.number = ${number})`;

const MAX_TEXT = 200;
const CHUNK = 250;
let sequence = 0;

export interface StagedSkip {
  seq: number;
  id: number | null;
  number: string;
  name: string;
  status: string;
  reason: string;
}

/**
 * The staging tables of one import, in the connection's temp database (never seen by other
 * connections, dropped at the end). Every row keeps its place in the file (`seq`). The first
 * occurrence of each valid number goes to `…_new`; rows skipped as they are read (invalid, repeated
 * in the file) go to `…_skip`. After loading, `classify` moves the new rows that are opted out or
 * already listed to `…_skip` with set-based statements, each walking the smaller side of its join;
 * `merge` then inserts what is left in number order. The per-row work in JavaScript is the
 * normalising and one insert.
 */
export class ImportStaging {
  readonly table: string;
  private readonly fresh: string;
  private readonly skip: string;
  private readonly index: string;
  private seq = 0;
  /** Rows in `…_new` still to insert. */
  private newRows = 0;
  /** `CHUNK` new rows a statement: one multi-row insert costs far less than as many single ones. */
  private readonly insertNew: Database.Statement;
  private readonly chunk: Array<string | number | null> = new Array(CHUNK * 4);
  private chunked = 0;
  private readonly insertSkip: Database.Statement;
  private readonly seen = new NumberSet();

  constructor(private readonly c: Database.Database) {
    this.table = `pn_import_${process.pid}_${++sequence}`;
    this.fresh = `temp.${this.table}_new`;
    this.skip = `temp.${this.table}_skip`;
    this.index = `${this.table}_number`;
    c.exec(`CREATE TABLE ${this.fresh} (seq INTEGER PRIMARY KEY, number TEXT NOT NULL, name TEXT NOT NULL, line_type TEXT)`);
    c.exec(`CREATE TABLE ${this.skip} (seq INTEGER PRIMARY KEY, number TEXT NOT NULL, name TEXT NOT NULL, reason TEXT NOT NULL, ref_id INTEGER, ref_status TEXT)`);
    this.insertNew = this.insertMany(CHUNK);
    this.insertSkip = prepareAlone(c, `INSERT INTO ${this.skip} (seq, number, name, reason) VALUES (?, ?, ?, ?)`);
  }

  private insertMany(n: number): Database.Statement {
    return prepareAlone(this.c, `INSERT INTO ${this.fresh} (seq, number, name, line_type) VALUES ${Array.from({ length: n }, () => '(?, ?, ?, ?)').join(', ')}`);
  }

  get rows(): number {
    return this.seq;
  }

  /** Appends a batch in one transaction; invalid and repeated rows are skipped at once. */
  add(batch: ImportRecord[]): void {
    this.c.transaction(() => {
      const country = defaultCountryOf(this.c);
      for (const record of batch) {
        const name = (record.name ?? '').slice(0, MAX_TEXT);
        const phone = normalizePhone(record.number ?? '', country);
        const seq = ++this.seq;
        if (!phone.ok) this.insertSkip.run(seq, (record.number ?? '').slice(0, MAX_TEXT), name, SKIP_REASONS.invalid);
        // Later occurrences of a number are repeats (classify may still report the list's reason for them).
        else if (!this.seen.add(phone.number)) this.insertSkip.run(seq, phone.number, name, SKIP_REASONS.repeated);
        else {
          const at = this.chunked * 4;
          this.chunk[at] = seq;
          this.chunk[at + 1] = phone.number;
          this.chunk[at + 2] = name;
          this.chunk[at + 3] = phone.lineType;
          this.newRows += 1;
          if (++this.chunked === CHUNK) {
            this.insertNew.run(this.chunk);
            this.chunked = 0;
          }
        }
      }
      if (this.chunked > 0) {
        this.insertMany(this.chunked).run(this.chunk.slice(0, this.chunked * 4));
        this.chunked = 0;
      }
    })();
  }

  /**
   * Indexes the new rows by number, once after loading (a sort, far cheaper than keeping it up to
   * date row by row): the list checks walk it in number order and the final insert reads it alone
   * (it covers number, name and line type). Its numbers are distinct by construction.
   */
  indexPending(): void {
    this.c.exec(`CREATE INDEX temp.${this.index} ON ${this.table}_new (number, name, line_type)`);
  }

  /**
   * Moves the new rows whose number is opted out, then those already in the list, to the skipped
   * rows (in that order: the first reason wins), and gives repeats of such numbers the same reason.
   * Each check walks the smaller of the two sides and looks the other up by index, so a small file
   * against a large list (or the reverse) costs what the smaller one holds. Read-only on the list:
   * run before the final transaction (the merge re-checks what changed meanwhile).
   */
  classify(): void {
    const c = this.c;
    const t = this.table;
    const size = (table: string) => (c.prepare(`SELECT coalesce(max(id), 0) AS n FROM main.${table}`).get() as { n: number }).n;
    const move = (reason: string, from: string, refId: string, refStatus: string) => {
      const changes = this.skipFrom(reason, refId, refStatus, from);
      if (changes > 0) {
        c.prepare(`DELETE FROM ${this.fresh} WHERE seq IN (SELECT seq FROM ${this.skip} WHERE reason = ?)`).run(reason);
        this.newRows -= changes;
      }
    };
    // CROSS JOIN keeps the left table as the outer loop (SQLite never reorders it).
    const optedOutFrom =
      size('opt_outs') < this.newRows
        ? `FROM main.opt_outs o CROSS JOIN temp.${t}_new s INDEXED BY ${this.index} WHERE s.number = o.number`
        : `FROM temp.${t}_new s INDEXED BY ${this.index} WHERE s.number IN (SELECT number FROM main.opt_outs)`;
    move(SKIP_REASONS.optedOut, optedOutFrom, listed('s.number'), `'nonactive'`);
    const existingFrom =
      size('phone_numbers') < this.newRows
        ? `FROM main.phone_numbers p CROSS JOIN temp.${t}_new s INDEXED BY ${this.index} WHERE s.number = p.number`
        : `FROM temp.${t}_new s INDEXED BY ${this.index} CROSS JOIN main.phone_numbers p WHERE p.number = s.number`;
    move(SKIP_REASONS.existing, existingFrom, 'p.id', 'p.status');
    this.markRepeats(Number.MAX_SAFE_INTEGER);
  }

  /**
   * Copies the staged rows that `from` selects (the staged row aliased `s`) to the skipped rows with
   * `reason` and the listed row's id and status (SQL expressions); answers how many.
   */
  private skipFrom(reason: string, refId: string, refStatus: string, from: string, ...params: unknown[]): number {
    return this.c
      .prepare(`INSERT INTO ${this.skip} (seq, number, name, reason, ref_id, ref_status) SELECT s.seq, s.number, s.name, ?, ${refId}, ${refStatus} ${from}`)
      .run(reason, ...params).changes;
  }

  /** Repeats of an opted-out number, or of one listed with an id up to `listedUpTo`, report that reason instead. */
  private markRepeats(listedUpTo: number): void {
    const t = this.table;
    this.c
      .prepare(
        `UPDATE ${this.skip} SET reason = ?, ref_status = 'nonactive', ref_id = ${listed(`${t}_skip.number`)}
         WHERE reason = ? AND number IN (SELECT number FROM main.opt_outs)`,
      )
      .run(SKIP_REASONS.optedOut, SKIP_REASONS.repeated);
    this.c
      .prepare(
        `UPDATE ${this.skip} SET reason = ?, ref_id = p.id, ref_status = p.status FROM main.phone_numbers p
         WHERE ${t}_skip.reason = ? AND p.number = ${t}_skip.number AND p.id <= ?`,
      )
      .run(SKIP_REASONS.existing, SKIP_REASONS.repeated, listedUpTo);
  }

  pending(): number {
    return this.newRows;
  }

  /**
   * Inserts the new rows into phone_numbers (call inside the final transaction). Rows opted out or
   * added by someone else since `classify` are left out and moved to the skipped rows.
   */
  merge(pending: number): number {
    const c = this.c;
    const t = this.table;
    const before = (c.prepare('SELECT coalesce(max(id), 0) AS m FROM main.phone_numbers').get() as { m: number }).m;
    // In number order: the unique index then grows from left to right instead of at random.
    // A number deleted from the list and now imported again keeps its recipient cooldown (rarely any).
    const removed = c.prepare('SELECT 1 FROM main.removed_recipients LIMIT 1').get() !== undefined;
    const { changes } = c
      .prepare(
        `INSERT INTO main.phone_numbers (number, name, line_type${removed ? ', last_sent' : ''})
         SELECT number, name, line_type${removed ? `, ${REMOVED_LAST_SENT('s.number', 'main.')}` : ''} FROM temp.${t}_new s INDEXED BY ${this.index}
         WHERE NOT EXISTS (SELECT 1 FROM main.opt_outs o WHERE o.number = s.number)
         ORDER BY number ON CONFLICT (number) DO NOTHING`,
      )
      .run();
    if (removed) c.prepare(FORGET_LISTED('main.')).run();
    if (changes !== pending) {
      this.skipFrom(SKIP_REASONS.optedOut, listed('s.number'), `'nonactive'`, `FROM temp.${t}_new s WHERE s.number IN (SELECT number FROM main.opt_outs)`);
      this.skipFrom(
        SKIP_REASONS.existing,
        'p.id',
        'p.status',
        `FROM temp.${t}_new s JOIN main.phone_numbers p ON p.number = s.number WHERE p.id <= ? AND s.seq NOT IN (SELECT seq FROM ${this.skip})`,
        before,
      );
      this.markRepeats(before);
    }
    return changes;
  }

  skippedCount(): number {
    return (this.c.prepare(`SELECT count(*) AS n FROM ${this.skip}`).get() as { n: number }).n;
  }

  /** Up to `limit` skipped rows after `afterSeq`, in file order. */
  skippedAfter(afterSeq: number, limit: number): StagedSkip[] {
    return this.c
      .prepare(`SELECT seq, ref_id AS id, number, name, coalesce(ref_status, '') AS status, reason FROM ${this.skip} WHERE seq > ? ORDER BY seq LIMIT ?`)
      .all(afterSeq, limit) as StagedSkip[];
  }

  drop(): void {
    if (!this.c.open) return;
    this.c.exec(`DROP TABLE IF EXISTS ${this.fresh}`);
    this.c.exec(`DROP TABLE IF EXISTS ${this.skip}`);
  }
}
