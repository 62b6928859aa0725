/**
 * Numbering plans for rows stored before them, and line types for rows an import adds.
 *
 * Migration 0001 marks every older row `line_type = 'pending'`; `renormalizeStoredNumbers` reads each
 * again through the numbering plan once, at start-up, and reports what it did. Nothing is deleted:
 * - a number read differently is rewritten (its opt-out record follows it);
 * - a number that is no number of any plan keeps its digits, becomes `invalid` and nonactive;
 * - a number whose new form another row already holds keeps its digits, becomes `duplicate` and
 *   nonactive (the row that already had the form, or the lower id, keeps it).
 * Invalid and duplicate rows are never messaged (the blast picks active rows only, and an edit can make
 * them active only with a valid, free number).
 */
import { normalizePhone, type LineType } from '../../../common/phone';
import type { Db } from '../db/client';
import { defaultCountryOf } from '../settings/service';

export interface RenormalizeReport {
  checked: number;
  changed: number;
  invalid: number;
  duplicates: number;
}

const BATCH = 5000;

/**
 * How an older stored number reads. The old rule stored international digits, but also a spreadsheet's
 * `812…` (dropped zero) as if `81` were Japan's code. So: digits starting with the default country's
 * code, or valid only internationally, stay international; valid only as a national number of the
 * default country, they are recovered as that; valid both ways, the mobile reading wins (the receivers
 * of a blast are mobiles), the stored international reading otherwise.
 */
export function readStoredNumber(stored: string, country: string): { number: string; lineType: LineType } | null {
  const intl = normalizePhone(`+${stored}`, country);
  const national = normalizePhone(stored, country);
  if (intl.ok && (!national.ok || intl.lineType === 'mobile' || national.lineType !== 'mobile')) return intl;
  return national.ok ? national : null;
}

/** Re-reads every `pending` row; safe to run again (it finds none). */
export function renormalizeStoredNumbers(db: Db): RenormalizeReport {
  const c = db.$client;
  const country = defaultCountryOf(c);
  const report: RenormalizeReport = { checked: 0, changed: 0, invalid: 0, duplicates: 0 };
  const next = c.prepare(`SELECT id, number FROM phone_numbers WHERE line_type = 'pending' AND id > ? ORDER BY id LIMIT ${BATCH}`);
  const holder = c.prepare('SELECT id FROM phone_numbers WHERE number = ? AND id != ?');
  const setType = c.prepare('UPDATE phone_numbers SET line_type = ? WHERE id = ?');
  const rewrite = c.prepare('UPDATE phone_numbers SET number = ?, line_type = ? WHERE id = ?');
  const moveOptOut = c.prepare('UPDATE OR IGNORE opt_outs SET number = ? WHERE number = ?');
  const park = c.prepare("UPDATE phone_numbers SET line_type = ?, status = 'nonactive' WHERE id = ?");
  let after = 0;
  for (;;) {
    const rows = next.all(after) as Array<{ id: number; number: string }>;
    if (!rows.length) break;
    c.transaction(() => {
      for (const row of rows) {
        report.checked++;
        const read = readStoredNumber(row.number, country);
        if (!read) {
          park.run('invalid', row.id);
          report.invalid++;
        } else if (read.number === row.number) setType.run(read.lineType, row.id);
        else if (holder.get(read.number, row.id)) {
          park.run('duplicate', row.id);
          report.duplicates++;
        } else {
          rewrite.run(read.number, read.lineType, row.id);
          moveOptOut.run(read.number, row.number);
          report.changed++;
        }
      }
    })();
    after = rows[rows.length - 1]!.id;
  }
  return report;
}

/** Sets the line type of up to `limit` rows an import added without one; answers how many it set. */
export function classifyStep(db: Db, limit = 2000): number {
  const c = db.$client;
  const rows = c.prepare('SELECT id, number FROM phone_numbers WHERE line_type IS NULL LIMIT ?').all(limit) as Array<{ id: number; number: string }>;
  if (!rows.length) return 0;
  const set = c.prepare('UPDATE phone_numbers SET line_type = ? WHERE id = ?');
  c.transaction(() => {
    for (const row of rows) {
      const r = normalizePhone(`+${row.number}`);
      set.run(r.ok ? r.lineType : 'other', row.id);
    }
  })();
  return rows.length;
}

/** Classifies rows without a line type in small steps between requests, every few seconds. */
export function scheduleClassification(db: Db, log: (msg: string, err?: unknown) => void, everyMs = 3000): () => void {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const step = () => {
    timer = null;
    if (stopped || !db.$client.open) return;
    let more = false;
    try {
      more = classifyStep(db) > 0;
    } catch (err) {
      log('Classifying phone numbers failed', err);
    }
    timer = setTimeout(step, more ? 0 : everyMs);
    timer.unref();
  };
  timer = setTimeout(step, 0);
  timer.unref();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

export function reportLine(r: RenormalizeReport): string {
  return `Nomor telepon dinormalisasi ulang dengan rencana penomoran: ${r.checked} diperiksa, ${r.changed} diubah, ${r.invalid} ditandai tidak valid, ${r.duplicates} ditandai duplikat (tidak ada yang dihapus).`;
}
