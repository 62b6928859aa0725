/**
 * Which trigrams of a search text to hand a trigram index. Every number starts with the same
 * country and operator digits, so trigrams like "628" or "812" are in nearly every row, and the
 * index walks their whole lists when they are ANDed in: a prefix search took ~25 ms at 1M rows.
 * The candidates are re-checked with LIKE anyway, so any subset of the trigrams gives the same answer;
 * we AND only the rarest few, ranked by their frequency in a small random sample of the list.
 */

/** Stop adding trigrams once this few candidates are expected (low: overlapping trigrams are far from independent). */
const ENOUGH_CANDIDATES = 100;
const MIN_TRIGRAMS = 3;
const MAX_TRIGRAMS = 4;

/** Trigram counts over `rows` sampled rows of the list. */
export interface TrigramSample {
  rows: number;
  counts: Map<string, number>;
}

export function trigramsOf(text: string): string[] {
  const lower = text.toLowerCase();
  const out = new Set<string>();
  for (let i = 0; i + 3 <= lower.length; i++) out.add(lower.slice(i, i + 3));
  return [...out];
}

/**
 * The rarest trigrams of `text`, enough of them to narrow a list of `total` rows to a few thousand
 * candidates; `sample` is asked only when there is a choice to make.
 */
export function chooseTrigrams(text: string, total: number, sample: () => TrigramSample): string[] {
  const all = trigramsOf(text);
  if (all.length <= MIN_TRIGRAMS || total <= ENOUGH_CANDIDATES) return all;
  const s = sample();
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
