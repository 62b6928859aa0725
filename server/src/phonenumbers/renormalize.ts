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
import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import { normalizePhone, type LineType } from '../../../common/phone';
import { transaction, type Db } from '../db/client';
import { optOuts, phoneNumbers } from '../db/schema';
import { one } from '../db/raw';
import { storeOpen } from '../db/phonelist';
import { defaultCountry } from '../settings/service';

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
export async function renormalizeStoredNumbers(db: Db): Promise<RenormalizeReport> {
  const country = await defaultCountry(db);
  const report: RenormalizeReport = { checked: 0, changed: 0, invalid: 0, duplicates: 0 };
  let after = 0;
  for (;;) {
    const rows = await db
      .select({ id: phoneNumbers.id, number: phoneNumbers.number })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.lineType, 'pending'), gt(phoneNumbers.id, after)))
      .orderBy(asc(phoneNumbers.id))
      .limit(BATCH);
    if (!rows.length) break;
    const reads = rows.map((row) => ({ row, read: readStoredNumber(row.number, country) }));
    await transaction(db, async (tx) => {
      // Who holds each number a row would move to, kept up to date as the batch moves rows.
      const targets = [...new Set(reads.flatMap(({ row, read }) => (read && read.number !== row.number ? [read.number] : [])))];
      const holders = new Map<string, number>();
      for (let i = 0; i < targets.length; i += 500) {
        const found = await tx
          .select({ id: phoneNumbers.id, number: phoneNumbers.number })
          .from(phoneNumbers)
          .where(inArray(phoneNumbers.number, targets.slice(i, i + 500)));
        for (const h of found) holders.set(h.number, h.id);
      }
      const park = (lineType: string, id: number) => tx.update(phoneNumbers).set({ lineType, status: 'nonactive' }).where(eq(phoneNumbers.id, id));
      for (const { row, read } of reads) {
        report.checked++;
        if (!read) {
          await park('invalid', row.id);
          report.invalid++;
        } else if (read.number === row.number) await tx.update(phoneNumbers).set({ lineType: read.lineType }).where(eq(phoneNumbers.id, row.id));
        else if (holders.has(read.number)) {
          await park('duplicate', row.id);
          report.duplicates++;
        } else {
          await tx.update(phoneNumbers).set({ number: read.number, lineType: read.lineType }).where(eq(phoneNumbers.id, row.id));
          if (holders.get(row.number) === row.id) holders.delete(row.number);
          holders.set(read.number, row.id);
          // The opt-out follows its number, unless the new form is opted out already.
          const taken = await one(tx.select({ id: optOuts.id }).from(optOuts).where(eq(optOuts.number, read.number)).limit(1));
          if (!taken) await tx.update(optOuts).set({ number: read.number }).where(eq(optOuts.number, row.number));
          report.changed++;
        }
      }
    });
    after = rows[rows.length - 1]!.id;
  }
  return report;
}

/** Sets the line type of up to `limit` rows stored without one (older imports); answers how many it set. */
export async function classifyStep(db: Db, limit = 2000): Promise<number> {
  const rows = await db.select({ id: phoneNumbers.id, number: phoneNumbers.number }).from(phoneNumbers).where(isNull(phoneNumbers.lineType)).limit(limit);
  if (!rows.length) return 0;
  const byType = new Map<string, number[]>();
  for (const row of rows) {
    const r = normalizePhone(`+${row.number}`);
    const type = r.ok ? r.lineType : 'other';
    const ids = byType.get(type);
    if (ids) ids.push(row.id);
    else byType.set(type, [row.id]);
  }
  await transaction(db, async (tx) => {
    for (const [lineType, ids] of byType) await tx.update(phoneNumbers).set({ lineType }).where(and(inArray(phoneNumbers.id, ids), isNull(phoneNumbers.lineType)));
  });
  return rows.length;
}

/** Classifies rows without a line type in small steps between requests, every few seconds. */
export function scheduleClassification(db: Db, log: (msg: string, err?: unknown) => void, everyMs = 3000): () => void {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const step = async () => {
    timer = null;
    if (stopped || !storeOpen(db)) return;
    let more = false;
    try {
      more = (await classifyStep(db)) > 0;
    } catch (err) {
      if (stopped || !storeOpen(db)) return;
      log('Classifying phone numbers failed', err);
    }
    if (stopped) return;
    timer = setTimeout(() => void step(), more ? 0 : everyMs);
    timer.unref();
  };
  timer = setTimeout(() => void step(), 0);
  timer.unref();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

export function reportLine(r: RenormalizeReport): string {
  return `Nomor telepon dinormalisasi ulang dengan rencana penomoran: ${r.checked} diperiksa, ${r.changed} diubah, ${r.invalid} ditandai tidak valid, ${r.duplicates} ditandai duplikat (tidak ada yang dihapus).`;
}
