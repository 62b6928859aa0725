/**
 * How far into a number libphonenumber's verdict can look, per numbering plan.
 *
 * libphonenumber-js decides validity, type and E.164 form only through regular expressions anchored at
 * a few offsets of the digits (the national-prefix and calling-code strips) and through the length.
 * Each metadata regex is expanded here into flat alternatives of digit sets; trailing "any digit"
 * positions are dropped, since only the length can tell them apart. For a number, the digits that can
 * matter are then the first `depth` ones: past the point where every alternative has either ended or
 * already failed, no regex can change its answer. Two numbers of the same length that share that prefix
 * get the same verdict, so `phone.ts` memoises it under (length, prefix). A plan whose regexes do not fit
 * this grammar, or that rewrites numbers (`$1` transform rules), is not analysed and never memoised.
 */
import metadata from 'libphonenumber-js/metadata.max.json';

type Alt = number[]; // one bitmask of allowed digits per position
const ANY = 0x3ff;
const MAX_POS = 20; // longer than any number we pass to the library (17 digits)
const MAX_ALTS = 20000;

class Unsupported extends Error {}

/** Expands a metadata regex into flat alternatives (untrimmed). Throws Unsupported outside the grammar. */
function expand(re: string): Alt[] {
  let i = 0;
  const dedupe = (alts: Alt[]): Alt[] => {
    const seen = new Map<string, Alt>();
    for (const a of alts) seen.set(a.join(','), a);
    if (seen.size > MAX_ALTS) throw new Unsupported('too many alternatives');
    return [...seen.values()];
  };
  const concat = (left: Alt[], right: Alt[]): Alt[] => {
    const out: Alt[] = [];
    for (const l of left) for (const r of right) out.push(l.length >= MAX_POS ? l : [...l, ...r].slice(0, MAX_POS));
    return dedupe(out);
  };
  const parseClass = (): number => {
    i++; // [
    let mask = 0;
    if (re[i] === '^') throw new Unsupported('negated class');
    while (i < re.length && re[i] !== ']') {
      let lo: number;
      if (re[i] === '\\' && re[i + 1] === 'd') { mask |= ANY; i += 2; continue; }
      const c = re.charCodeAt(i) - 48;
      if (c < 0 || c > 9) throw new Unsupported(`class char ${re[i]}`);
      lo = c;
      i++;
      if (re[i] === '-' && re[i + 1] !== ']') {
        const hi = re.charCodeAt(i + 1) - 48;
        if (hi < 0 || hi > 9) throw new Unsupported('range');
        for (let d = lo; d <= hi; d++) mask |= 1 << d;
        i += 2;
      } else mask |= 1 << lo;
    }
    if (re[i] !== ']') throw new Unsupported('unclosed class');
    i++;
    return mask;
  };
  const parseAtom = (): Alt[] => {
    const ch = re[i];
    if (ch === '(') {
      i++;
      if (re[i] === '?') {
        if (re[i + 1] !== ':') throw new Unsupported('group kind');
        i += 2;
      }
      const inner = parseAlternation();
      if (re[i] !== ')') throw new Unsupported('unclosed group');
      i++;
      return inner;
    }
    if (ch === '[') return [[parseClass()]];
    if (ch === '\\') {
      if (re[i + 1] !== 'd') throw new Unsupported(`escape ${re[i + 1]}`);
      i += 2;
      return [[ANY]];
    }
    const d = re.charCodeAt(i) - 48;
    if (d < 0 || d > 9) throw new Unsupported(`char ${ch}`);
    i++;
    return [[1 << d]];
  };
  const parseQuantifier = (): [number, number] | null => {
    const ch = re[i];
    if (ch === '?') { i++; return [0, 1]; }
    if (ch === '*') { i++; return [0, MAX_POS]; }
    if (ch === '+') { i++; return [1, MAX_POS]; }
    if (ch !== '{') return null;
    const close = re.indexOf('}', i);
    const m = /^\{(\d+)(,(\d*))?\}$/.exec(re.slice(i, close + 1));
    if (!m) throw new Unsupported('quantifier');
    i = close + 1;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : m[3] === '' ? MAX_POS : Number(m[3]);
    return [lo, Math.min(hi, MAX_POS)];
  };
  const parseSequence = (): Alt[] => {
    let acc: Alt[] = [[]];
    while (i < re.length && re[i] !== '|' && re[i] !== ')') {
      const atom = parseAtom();
      const q = parseQuantifier();
      if (!q) { acc = concat(acc, atom); continue; }
      const [lo, hi] = q;
      // Repetitions lo..hi of the atom, as alternatives.
      let reps: Alt[] = lo === 0 ? [[]] : [];
      let power: Alt[] = [[]];
      for (let k = 1; k <= hi; k++) {
        power = concat(power, atom);
        if (k >= lo) reps = dedupe([...reps, ...power]);
        if (power.every((p) => p.length >= MAX_POS)) break;
      }
      acc = concat(acc, reps);
    }
    return acc;
  };
  function parseAlternation(): Alt[] {
    let alts = parseSequence();
    while (re[i] === '|') {
      i++;
      alts = dedupe([...alts, ...parseSequence()]);
    }
    return alts;
  }
  const out = parseAlternation();
  if (i !== re.length) throw new Unsupported('trailing input');
  return out;
}

const trim = (a: Alt): Alt => {
  let end = a.length;
  while (end > 0 && a[end - 1] === ANY) end--;
  return a.slice(0, end);
};

type CountryJson = readonly unknown[];
const countries = metadata.countries as unknown as Record<string, CountryJson>;
const callingCodes = metadata.country_calling_codes as unknown as Record<string, string[]>;
const nonGeographic = (metadata as unknown as { nonGeographic?: Record<string, CountryJson> }).nonGeographic ?? {};

/** The regexes libphonenumber can match while parsing and typing a number of this plan. */
function planRegexes(c: CountryJson): { patterns: string[]; prefixForParsing: string | null; idd: string | null } {
  const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
  if (str(c[8])) throw new Unsupported('national prefix transform rule');
  const patterns: string[] = [];
  const push = (v: unknown) => { const s = str(v); if (s) patterns.push(s); };
  push(c[2]);
  push(c[10]);
  for (const f of (Array.isArray(c[4]) ? c[4] : []) as unknown[][]) for (const ld of (Array.isArray(f[2]) ? f[2] : []) as unknown[]) push(ld);
  for (const t of (Array.isArray(c[11]) ? c[11] : []) as unknown[]) if (Array.isArray(t)) push(t[0]);
  const prefixForParsing = str(c[7]) ?? str(c[5]);
  if (prefixForParsing) patterns.push(prefixForParsing);
  return { patterns, prefixForParsing, idd: str(c[1]) };
}

/** A plan group: every country sharing one calling code (libphonenumber may consult any of them). */
export interface PlanShape {
  callingCode: string;
  alts: Alt[];
  /** Alternatives of the international dialling prefix: a national input starting with one is never memoised. */
  idd: Alt[];
  /** Alternatives of the national prefix for parsing (untrimmed: their lengths are the strips). */
  nationalPrefix: Alt[];
}

const shapes = new Map<string, PlanShape | null>();

export function planShape(callingCode: string): PlanShape | null {
  if (shapes.has(callingCode)) return shapes.get(callingCode) ?? null;
  let shape: PlanShape | null = null;
  try {
    const plans: CountryJson[] = (callingCodes[callingCode] ?? []).map((cc) => countries[cc]).filter((c): c is CountryJson => Boolean(c));
    const ng = nonGeographic[callingCode];
    if (ng) plans.push(ng);
    if (plans.length) {
      const alts: Alt[] = [];
      const idd: Alt[] = [];
      const nationalPrefix: Alt[] = [];
      for (const p of plans) {
        const r = planRegexes(p);
        for (const re of r.patterns) for (const a of expand(re)) alts.push(trim(a));
        if (r.prefixForParsing) nationalPrefix.push(...expand(r.prefixForParsing));
        if (r.idd) for (const a of expand(r.idd)) {
          idd.push(a);
          alts.push(trim(a));
        }
      }
      alts.push([...callingCode].map((d) => 1 << Number(d)));
      shape = { callingCode, alts, idd, nationalPrefix };
    }
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    shape = null;
  }
  shapes.set(callingCode, shape);
  return shape;
}

/** How many leading digits of `s` any alternative can look at (see the file comment). */
function depthAt(s: string, alts: Alt[], from: number): number {
  let depth = 0;
  const n = s.length - from;
  for (const a of alts) {
    let i = 0;
    while (i < a.length && i < n && ((a[i] as number) >> (s.charCodeAt(from + i) - 48)) & 1) i++;
    const d = i < a.length && i < n ? i + 1 : i;
    if (d > depth) depth = d;
  }
  return depth;
}

function startsWith(s: string, a: Alt | string, from = 0): boolean {
  if (typeof a === 'string') return s.startsWith(a, from);
  if (from + a.length > s.length) return false;
  for (let i = 0; i < a.length; i++) if (!(((a[i] as number) >> (s.charCodeAt(from + i) - 48)) & 1)) return false;
  return true;
}

/**
 * The number of leading digits of `digits` that decide its verdict, read from `start` (0 for a
 * national number, the calling code's length for an international one), or null when it must not be
 * memoised (an international dialling prefix in a national number).
 */
export function decidingDepth(digits: string, shape: PlanShape, start: number): number | null {
  if (start === 0 && shape.idd.some((a) => startsWith(digits, a))) return null;
  // The offsets a strip can move the number to: the calling code (national numbers may carry it
  // without '+'), then a national prefix. Which strips are possible is decided by digits that the
  // depth at the earlier offset already covers.
  const offsets = new Set<number>([start]);
  if (start === 0 && startsWith(digits, shape.callingCode)) offsets.add(shape.callingCode.length);
  for (const o of [...offsets]) for (const a of shape.nationalPrefix) if (startsWith(digits, a, o)) offsets.add(o + a.length);
  let depth = start;
  for (const o of offsets) depth = Math.max(depth, o + depthAt(digits, shape.alts, o));
  return Math.min(depth, digits.length);
}

export function callingCodeOf(country: string): string | null {
  const c = countries[country];
  return c && typeof c[0] === 'string' ? c[0] : null;
}

/** The calling code an international number starts with, as libphonenumber finds it (1–3 digits). */
export function leadingCallingCode(digits: string): string | null {
  if (digits[0] === '0') return null;
  for (let i = 1; i <= 3 && i <= digits.length; i++) {
    const cc = digits.slice(0, i);
    if (callingCodes[cc] || nonGeographic[cc]) return cc;
  }
  return null;
}

/** The national (trunk) prefix of a country, e.g. '0' for ID, or null. */
export function nationalPrefixOf(country: string): string | null {
  const c = countries[country];
  return c && typeof c[5] === 'string' && c[5] ? c[5] : null;
}

/** The calling codes of countries, each with its countries, the main one first (libphonenumber's order). */
export function countriesByCallingCode(): Record<string, readonly string[]> {
  return callingCodes;
}
