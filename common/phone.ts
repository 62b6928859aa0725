/**
 * Phone numbers are stored as international digits: `08…` → `628…`, `+62…` → `62…`, spaces, dots,
 * dashes and brackets removed, 8–15 digits. Shared by the client forms, imports, the generator and the
 * validator so every path agrees on what a number is.
 */

export const PHONE_MIN_DIGITS = 8;
export const PHONE_MAX_DIGITS = 15;

/** The skip reason an import reports for a number that cannot be normalised. */
export const INVALID_NUMBER = 'invalid number';

export type PhoneResult =
  | { ok: true; number: string }
  | {
      ok: false;
      /** Always `invalid number`, the reason an import reports. */
      reason: typeof INVALID_NUMBER;
      /** Why, for a person: shown next to the field on save. */
      message: string;
    };

const fail = (message: string): PhoneResult => ({ ok: false, reason: INVALID_NUMBER, message });

export function normalizePhone(input: unknown): PhoneResult {
  if (typeof input !== 'string' && typeof input !== 'number') return fail('Nomor telepon wajib diisi.');
  const raw = String(input).trim();
  if (!raw) return fail('Nomor telepon wajib diisi.');
  // Separators people type or spreadsheets add: spaces (also non-breaking), dots, dashes, brackets.
  let s = raw.replace(/[\s.\-()\u00a0]/g, '');
  if (s.startsWith('+')) s = s.slice(1);
  else if (s.startsWith('00')) s = s.slice(2);
  else if (s.startsWith('0')) {
    if (!s.startsWith('08')) return fail('Nomor lokal harus diawali 08 (atau tulis dengan kode negara, mis. 62).');
    s = `62${s.slice(1)}`;
  }
  if (!/^\d+$/.test(s)) return fail('Nomor telepon hanya boleh berisi angka, spasi, titik, tanda minus atau + di depan.');
  if (s.length < PHONE_MIN_DIGITS || s.length > PHONE_MAX_DIGITS) {
    return fail(`Nomor telepon harus ${PHONE_MIN_DIGITS}–${PHONE_MAX_DIGITS} digit (contoh 6281234567890).`);
  }
  return { ok: true, number: s };
}

/** The normalised number, or null when it is not one. */
export function phoneOrNull(input: unknown): string | null {
  const r = normalizePhone(input);
  return r.ok ? r.number : null;
}

/**
 * A search text that looks like a phone number written locally (`0812…`, `+62 812…`) becomes the
 * stored form, so a search finds what the list shows. Anything else is returned trimmed.
 */
export function phoneSearchText(input: string): string {
  const t = input.trim();
  if (!/^[+\d\s.\-()]+$/.test(t) || !/\d/.test(t)) return t;
  let s = t.replace(/[\s.\-()]/g, '');
  if (s.startsWith('+')) s = s.slice(1);
  else if (s.startsWith('08')) s = `62${s.slice(1)}`;
  return s;
}
