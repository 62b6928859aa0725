import type { Db } from '../db/client';

/**
 * Which trigrams of a search text to hand the FTS5 index. Every number starts with the same
 * country and operator digits, so trigrams like "628" or "812" are in nearly every row, and FTS5
 * (detail=none) walks their whole lists when they are ANDed in: a prefix search took ~25 ms at 1M rows.
 * The candidates are re-checked with LIKE anyway, so any subset of the trigrams gives the same answer;
 * we AND only the rarest few, ranked by their frequency in a small random sample of the list.
 */

const SAMPLE_ROWS = 4000;
/** Stop adding trigrams once this few candidates are expected (low: overlapping trigrams are far from independent). */
const ENOUGH_CANDIDATES = 100;
const MIN_TRIGRAMS = 3;
const MAX_TRIGRAMS = 4;

interface Sample {
  total: number;
  rows: number;
  counts: Map<string, number>;
  at: number;
}
const samples = new WeakMap<Db, Sample>();

export function trigramsOf(text: string): string[] {
  const lower = text.toLowerCase();
  const out = new Set<string>();
  for (let i = 0; i + 3 <= lower.length; i++) out.add(lower.slice(i, i + 3));
  return [...out];
}

/** Trigram counts over up to SAMPLE_ROWS rows picked by random id seeks (a few ms, cached). */
function sample(db: Db, total: number): Sample {
  const cached = samples.get(db);
  // Frequencies drift slowly: resample when the list grew or shrank by a fifth, or hourly.
  if (cached && Math.abs(total - cached.total) <= cached.total / 5 && Date.now() - cached.at < 3_600_000) return cached;
  const c = db.$client;
  const { lo, hi } = c.prepare('SELECT coalesce(min(id), 0) AS lo, coalesce(max(id), 0) AS hi FROM phone_numbers').get() as { lo: number; hi: number };
  const pick = c.prepare('SELECT number, name FROM phone_numbers WHERE id >= ? ORDER BY id LIMIT 1').raw();
  const counts = new Map<string, number>();
  const n = Math.min(SAMPLE_ROWS, total);
  for (let i = 0; i < n; i++) {
    const row = pick.get(lo + Math.floor(Math.random() * (hi - lo + 1))) as [string, string] | undefined;
    if (!row) continue;
    for (const t of new Set([...trigramsOf(row[0]), ...trigramsOf(row[1])])) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  const fresh = { total, rows: n, counts, at: Date.now() };
  samples.set(db, fresh);
  return fresh;
}

/** The rarest trigrams of `text`, enough of them to narrow the list to a few thousand candidates. */
export function selectiveTrigrams(db: Db, text: string, total: number): string[] {
  const all = trigramsOf(text);
  if (all.length <= MIN_TRIGRAMS || total <= ENOUGH_CANDIDATES) return all;
  const s = sample(db, total);
  const freq = (t: string) => ((s.counts.get(t) ?? 0) + 0.5) / Math.max(1, s.rows);
  // Rarest first; on ties the later trigram (the more specific digits of a number) first.
  const ranked = all.map((t, i) => ({ t, f: freq(t), i })).sort((a, b) => a.f - b.f || b.i - a.i);
  const chosen: string[] = [];
  let expected = total;
  for (const { t, f } of ranked) {
    if (chosen.length >= MAX_TRIGRAMS || (chosen.length >= MIN_TRIGRAMS && expected < ENOUGH_CANDIDATES)) break;
    chosen.push(t);
    expected *= f;
  }
  return chosen;
}

/** `"abc" AND "bcd" …` for an FTS5 trigram index. */
export function matchExpression(trigrams: string[]): string {
  return trigrams.map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND ');
}
