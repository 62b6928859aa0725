import dayjs from 'dayjs';
import i18n from 'i18next';

/**
 * Grouping follows the screen's language, not the browser's: an Indonesian screen reads 1.152, an English
 * one 1,152, whatever the browser is set to.
 */
const formats: Record<string, Intl.NumberFormat> = {};
function wholeNumbers(lang: string): Intl.NumberFormat {
  const tag = lang.startsWith('en') ? 'en-US' : 'id-ID';
  return (formats[tag] ??= new Intl.NumberFormat(tag, { maximumFractionDigits: 0 }));
}

/** A counter or any whole number: `1.152` (Indonesian), `1,152` (English). Missing or non-numeric values count as 0. */
export function formatCount(value: number | string | null | undefined, lang: string = i18n.language ?? 'id'): string {
  const n = Number(value ?? 0);
  return wholeNumbers(lang).format(Number.isFinite(n) ? Math.round(n) : 0);
}

/** `Rp 10.000` on an Indonesian screen, `Rp 10,000` on an English one: rupiah, no decimals. */
export function formatRupiah(value: number | null | undefined): string {
  return `Rp ${formatCount(value)}`;
}

/** A moment in one of the console's formats; '-' when unset or invalid. */
const formatMoment =
  (format: string) =>
  (value: string | number | Date | null | undefined): string => {
    if (value === null || value === undefined || value === '') return '-';
    const d = dayjs(value);
    return d.isValid() ? d.format(format) : '-';
  };

/** '26/11/2026 16:39', as every list shows a date. */
export const formatDateTime = formatMoment('DD/MM/YYYY HH:mm');

/** To the second, as the monitors show events: '26/11/2026 16:39:38'. */
export const formatDateTimeSeconds = formatMoment('DD/MM/YYYY HH:mm:ss');

/** 'loggedOut' → 'Logged Out', 'reconnecting...' → 'Reconnecting...'; unset counts as unknown. */
export function formatState(state: string | null | undefined): string {
  const s = state || 'unknown';
  return s
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(' ')
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');
}

/** The last `n` characters of a name, as the validator list shows file names. */
export function lastChars(text: string, n = 20): string {
  return text.length > n ? text.slice(-n) : text;
}

/** 2 decimals, as progress is shown. */
export function formatProgress(value: number | null | undefined): string {
  return Number(value ?? 0).toFixed(2);
}
