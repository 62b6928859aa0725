import { getCountry } from 'countries-and-timezones';
import { countriesByCallingCode } from '../../../common/phone-plan';

/**
 * 'Jam Kirim': a number is messaged only while the local time of its country is inside the window.
 * The stored number (E.164 digits) starts with its calling code, whose main country (libphonenumber's
 * metadata) gives the zone: the country's own zone, or its most populous one (MOST_POPULOUS). Numbers
 * whose code names no country (+800, +882…) use the install's zone.
 */

export interface SendWindow {
  /** 'HH:MM', inclusive. */
  from: string;
  /** 'HH:MM', exclusive; before `from` the window wraps past midnight; equal to `from`: always open. */
  to: string;
  /** The install's IANA zone. */
  zone: string;
}

export const DEFAULT_WINDOW: SendWindow = { from: '08:00', to: '20:00', zone: 'Asia/Jakarta' };

/** The window of the settings row; a stored value this runtime cannot read falls back to the default. */
export function windowOf(s: { send_from?: string; send_to?: string; time_zone?: string }): SendWindow {
  return {
    from: s.send_from && isClock(s.send_from) ? s.send_from : DEFAULT_WINDOW.from,
    to: s.send_to && isClock(s.send_to) ? s.send_to : DEFAULT_WINDOW.to,
    zone: s.time_zone && isTimeZone(s.time_zone) ? s.time_zone : DEFAULT_WINDOW.zone,
  };
}

/**
 * The most populous zone of every country countries-and-timezones lists with several zones (its lists
 * are alphabetical and carry no population); a test keeps this table covering every such country.
 */
export const MOST_POPULOUS: Readonly<Record<string, string>> = {
  AQ: 'Antarctica/Casey',
  AR: 'America/Argentina/Buenos_Aires',
  AU: 'Australia/Sydney',
  BR: 'America/Sao_Paulo',
  CA: 'America/Toronto',
  CD: 'Africa/Lagos',
  CL: 'America/Santiago',
  CN: 'Asia/Shanghai',
  CY: 'Asia/Nicosia',
  DE: 'Europe/Berlin',
  EC: 'America/Guayaquil',
  ES: 'Europe/Madrid',
  FM: 'Pacific/Port_Moresby',
  GL: 'America/Nuuk',
  ID: 'Asia/Jakarta',
  KI: 'Pacific/Tarawa',
  KZ: 'Asia/Almaty',
  MH: 'Pacific/Tarawa',
  MN: 'Asia/Ulaanbaatar',
  MX: 'America/Mexico_City',
  MY: 'Asia/Singapore',
  NZ: 'Pacific/Auckland',
  PF: 'Pacific/Tahiti',
  PG: 'Pacific/Port_Moresby',
  PS: 'Asia/Hebron',
  PT: 'Europe/Lisbon',
  RU: 'Europe/Moscow',
  TF: 'Indian/Maldives',
  UA: 'Europe/Kyiv',
  UM: 'Pacific/Pago_Pago',
  US: 'America/New_York',
  UZ: 'Asia/Tashkent',
  VN: 'Asia/Ho_Chi_Minh',
};

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isClock(value: string): boolean {
  return HH_MM.test(value);
}

/** Whether `zone` is an IANA zone this runtime knows (Intl refuses the others). */
const knownZones = new Set<string>();

export function isTimeZone(zone: string): boolean {
  if (knownZones.has(zone)) return true;
  if (!zone || !/^[A-Za-z]/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    knownZones.add(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's canonical name (Intl accepts `asia/jakarta` as well). */
export function canonicalTimeZone(zone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone }).resolvedOptions().timeZone;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The zone a country's numbers are read in, or null for an unknown country. */
export function zoneOfCountry(country: string): string | null {
  return MOST_POPULOUS[country] ?? getCountry(country as Parameters<typeof getCountry>[0])?.timezones[0] ?? null;
}

let codeZones: Array<{ code: string; zone: string }> | null = null;

/** Every calling code with a country, and that country's zone. */
function callingCodeZones(): Array<{ code: string; zone: string }> {
  if (!codeZones) {
    codeZones = [];
    for (const [code, countries] of Object.entries(countriesByCallingCode())) {
      const zone = countries[0] ? zoneOfCountry(countries[0]) : null;
      if (zone) codeZones.push({ code, zone });
    }
  }
  return codeZones;
}

/** The calling code a stored number starts with (codes are prefix-free), or null. */
export function callingCodeOfNumber(number: string): string | null {
  const byCode = countriesByCallingCode();
  for (let i = 1; i <= 3 && i <= number.length; i++) if (byCode[number.slice(0, i)]) return number.slice(0, i);
  return null;
}

/** The zone a stored number is read in: its country's, else the install's. */
export function zoneOfNumber(number: string, installZone: string): string {
  const code = callingCodeOfNumber(number);
  return (code && callingCodeZones().find((c) => c.code === code)?.zone) ?? installZone;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes since local midnight in `zone` at `now`. */
export function localMinutes(zone: string, now: number): number {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, f);
  }
  const parts = f.formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part('hour') * 60 + part('minute');
}

/** 'HH:MM' of `at` in `zone`. */
export function clockIn(zone: string, at: number): string {
  const m = localMinutes(zone, at);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Whether the local minute `m` is inside the window. */
export function insideAt(window: Pick<SendWindow, 'from' | 'to'>, m: number): boolean {
  const from = minutesOf(window.from);
  const to = minutesOf(window.to);
  if (from === to) return true;
  return from < to ? m >= from && m < to : m >= from || m < to;
}

export function isOpenIn(window: SendWindow, zone: string, now: number): boolean {
  return insideAt(window, localMinutes(zone, now));
}

/**
 * What a claim needs: a number is inside when whether its calling code is in `codes` equals `match`.
 * With the install's zone inside, `codes` lists the closed countries' codes (so numbers of no country
 * pass); otherwise the open ones.
 */
export interface WindowFilter {
  codes: string[];
  match: boolean;
}

let lastFilter: { key: string; filter: WindowFilter } | null = null;

/** The claim's condition at `now` (it changes only on a whole minute, so it is worked out once a minute). */
export function windowFilter(window: SendWindow, now: number): WindowFilter {
  const key = `${window.from} ${window.to} ${window.zone} ${Math.floor(now / 60_000)}`;
  if (lastFilter?.key === key) return lastFilter.filter;
  const filter = filterAt(window, now);
  lastFilter = { key, filter };
  return filter;
}

function filterAt(window: SendWindow, now: number): WindowFilter {
  const open = new Map<string, boolean>();
  const openIn = (zone: string) => {
    let o = open.get(zone);
    if (o === undefined) {
      o = isOpenIn(window, zone, now);
      open.set(zone, o);
    }
    return o;
  };
  const installOpen = openIn(window.zone);
  // Install zone open: list the closed countries' codes, so a number matching none of them (no country) passes.
  const codes = callingCodeZones()
    .filter((c) => openIn(c.zone) !== installOpen)
    .map((c) => c.code);
  return { codes, match: !installOpen };
}

/**
 * The next moment (a whole minute after `now`) at which the window opens in one of `zones`, or null
 * when it never closes. Offsets are read at `now`; a change of daylight saving time in between is
 * caught by the engine looking again when it wakes.
 */
export function nextOpening(window: SendWindow, zones: Iterable<string>, now: number): number | null {
  const from = minutesOf(window.from);
  if (from === minutesOf(window.to)) return null;
  const minute = now - (now % 60_000);
  let best: number | null = null;
  for (const zone of new Set(zones)) {
    const m = localMinutes(zone, now);
    const ahead = (from - m + 1440) % 1440 || 1440;
    const at = minute + ahead * 60_000;
    if (best === null || at < best) best = at;
  }
  return best;
}
