import dayjs from 'dayjs';

// Indonesian grouping whatever the browser's language: counters read 1.152 on every screen.
const whole = new Intl.NumberFormat('id-ID', { maximumFractionDigits: 0 });

/** A counter or any whole number: `1.152`. Missing or non-numeric values count as 0. */
export function formatCount(value: number | string | null | undefined): string {
  const n = Number(value ?? 0);
  return whole.format(Number.isFinite(n) ? Math.round(n) : 0);
}

/** `Rp 10.000`: Indonesian rupiah, no decimals. */
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
