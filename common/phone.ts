/**
 * The one phone-number normaliser (client forms, imports, the generator, the validator, the blaster,
 * linking, the simulator). Numbers are read with libphonenumber-js's full metadata against a default
 * country (setting 'Kode Negara Default', `ID` unless changed): `+…` or `00…` is international, anything
 * else is a national number of the default country (so `812-3456-7890` → `6281234567890`), except that
 * digits starting with that country's calling code (`62…`) are first read as international. A number must
 * be valid in its country's plan. The stored form is E.164 digits without '+'.
 *
 * libphonenumber costs ~13 µs a number; imports need ~1 µs. Its verdict depends only on the length and
 * a prefix whose size `phone-plan.ts` derives from the metadata, so verdicts are memoised under
 * (country, length, that prefix) and a miss asks the library.
 */
import { getCountries, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { callingCodeOf, decidingDepth, leadingCallingCode, nationalPrefixOf, planShape } from './phone-plan';

export const DEFAULT_COUNTRY = 'ID';
/** libphonenumber reads at most 17 digits. */
const MAX_DIGITS = 17;

/** The skip reason an import reports for a number that is not valid for its country. */
export const INVALID_NUMBER = 'nomor tidak valid';

export type LineType = 'mobile' | 'fixed_line' | 'other';
export const LINE_TYPES: readonly LineType[] = ['mobile', 'fixed_line', 'other'];

export type PhoneResult =
  | { ok: true; number: string; lineType: LineType }
  | {
      ok: false;
      /** Always `nomor tidak valid`, the reason an import reports. */
      reason: typeof INVALID_NUMBER;
      /** Why, for a person: shown next to the field on save. */
      message: string;
    };

const fail = (message: string): PhoneResult => ({ ok: false, reason: INVALID_NUMBER, message });
const REQUIRED = 'Nomor telepon wajib diisi.';
const BAD_CHARS = 'Nomor telepon hanya boleh berisi angka, spasi, titik, tanda minus atau + di depan.';
const NOT_IN_PLAN = 'Nomor telepon tidak valid untuk negaranya (periksa kode negara dan jumlah digit).';

const COUNTRIES = new Set<string>(getCountries());
/** True for an ISO 3166 alpha-2 code the numbering-plan library knows. */
export function isSupportedCountry(code: string): boolean {
  return COUNTRIES.has(code);
}
/** The setting's country when the library knows it, else the default ('Kode Negara Default' as read). */
export function countryOr(code: string | null | undefined): string {
  return code && isSupportedCountry(code) ? code : DEFAULT_COUNTRY;
}
export function supportedCountries(): string[] {
  return [...COUNTRIES].sort();
}

const DIGITS = /^\d+$/;
const SEPARATORS = /[\s.\-()\u00a0]/g;

type Verdict = { ok: true; number: string; lineType: LineType } | { ok: false };
type Entry = { ok: false } | { ok: true; head: string; lineType: LineType };
/** Per country (or '+' for international numbers), per length: the prefix sizes seen and the verdicts. */
type Memo = Map<number, { depths: number[]; verdicts: Map<string, Entry> }>;
const memos = new Map<string, Memo>();
let memoSize = 0;
const MEMO_LIMIT = 200_000;

function ask(digits: string, international: boolean, country: string): Verdict {
  const p = parsePhoneNumberFromString(international ? `+${digits}` : digits, country as CountryCode);
  if (!p || !p.isValid()) return { ok: false };
  const type = p.getType();
  const lineType: LineType = type === 'MOBILE' ? 'mobile' : type === 'FIXED_LINE' ? 'fixed_line' : 'other';
  return { ok: true, number: p.number.slice(1), lineType };
}

function classify(digits: string, international: boolean, country: string): Verdict {
  const memoKey = international ? '+' : country;
  let memo = memos.get(memoKey);
  const byLen = memo?.get(digits.length);
  if (byLen) {
    for (const k of byLen.depths) {
      const e = byLen.verdicts.get(digits.slice(0, k));
      if (e) return e.ok ? { ok: true, number: e.head + digits.slice(k), lineType: e.lineType } : e;
    }
  }
  const verdict = ask(digits, international, country);
  const cc = international ? leadingCallingCode(digits) : callingCodeOf(country);
  const shape = cc ? planShape(cc) : null;
  const k = shape ? decidingDepth(digits, shape, international ? (cc as string).length : 0) : null;
  if (k === null) return verdict;
  const tail = digits.slice(k);
  let entry: Entry = { ok: false };
  if (verdict.ok) {
    // Only a rewrite confined to the prefix can be replayed on other numbers.
    if (!verdict.number.endsWith(tail)) return verdict;
    entry = { ok: true, head: verdict.number.slice(0, verdict.number.length - tail.length), lineType: verdict.lineType };
  }
  if (memoSize >= MEMO_LIMIT) {
    memos.clear();
    memoSize = 0;
  }
  if (!memo) memos.set(memoKey, (memo = new Map()));
  let slot = memo.get(digits.length);
  if (!slot) memo.set(digits.length, (slot = { depths: [], verdicts: new Map() }));
  if (!slot.depths.includes(k)) slot.depths.push(k);
  slot.verdicts.set(digits.slice(0, k), entry);
  memoSize++;
  return verdict;
}

/** The same answer without the memo: what the library itself says (tests compare the two). */
export function normalizePhoneUncached(input: unknown, country: string = DEFAULT_COUNTRY): PhoneResult {
  return run(input, country, ask);
}

export function normalizePhone(input: unknown, country: string = DEFAULT_COUNTRY): PhoneResult {
  return run(input, country, classify);
}

function run(input: unknown, country: string, judge: typeof classify): PhoneResult {
  let s: string;
  if (typeof input === 'string') s = input.trim();
  else if (typeof input === 'number' && Number.isSafeInteger(input) && input > 0) s = String(input);
  else return fail(REQUIRED);
  if (!s) return fail(REQUIRED);
  if (!DIGITS.test(s)) {
    s = s.replace(SEPARATORS, '');
    if (s.startsWith('+')) {
      if (!DIGITS.test(s.slice(1))) return fail(BAD_CHARS);
    } else if (!DIGITS.test(s)) return fail(BAD_CHARS);
  }
  let international = false;
  if (s.startsWith('+')) {
    international = true;
    s = s.slice(1);
  } else if (s.startsWith('00')) {
    international = true;
    s = s.slice(2);
  }
  if (!s || s.length > MAX_DIGITS) return fail(NOT_IN_PLAN);
  const plan = isSupportedCountry(country) ? country : DEFAULT_COUNTRY;
  // Digits starting with the default country's calling code are read as written with it ('62…' is
  // how Indonesians write international numbers, and the stored form must read back as itself);
  // only when that is no valid number are they taken as a national number.
  if (!international && s.startsWith(callingCodeOf(plan) ?? '+')) {
    const v = judge(s, true, plan);
    if (v.ok) return v;
  }
  const v = judge(s, international, plan);
  return v.ok ? v : fail(NOT_IN_PLAN);
}

/** The normalised number, or null when it is not one. */
export function phoneOrNull(input: unknown, country: string = DEFAULT_COUNTRY): string | null {
  const r = normalizePhone(input, country);
  return r.ok ? r.number : null;
}

/**
 * A search text that looks like a phone number written locally (`0812…`, `+62 812…`) becomes the
 * stored form, so a search finds what the list shows. Anything else is returned trimmed.
 */
export function phoneSearchText(input: string, country: string = DEFAULT_COUNTRY): string {
  const t = input.trim();
  if (!/^[+\d\s.\-()]+$/.test(t) || !/\d/.test(t)) return t;
  let s = t.replace(/[\s.\-()]/g, '');
  const cc = callingCodeOf(country) ?? '62';
  const np = nationalPrefixOf(country);
  if (s.startsWith('+')) s = s.slice(1);
  else if (np && s.startsWith(np) && s.length > np.length && !s.startsWith(`${np}0`)) s = cc + s.slice(np.length);
  return s;
}
