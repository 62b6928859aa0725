/**
 * The simulated WhatsApp network: which numbers have an account and under which push name.
 * Pure functions of (seed, number), so the demo seed, the generator, the validator and the
 * simulator all agree without sharing state.
 */
import { phoneOrNull } from '../../../../common/phone';

/** The seed used when SIM_SEED is not set (the same default as the server's configuration). */
export const DEFAULT_SIM_SEED = 'blast-demo';

/** Share of well-formed numbers that have WhatsApp. */
export const REGISTERED_SHARE = 0.7;

/** The seed the running server uses: SIM_SEED, else the default. For seeders, which get no config. */
export function simSeedFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.SIM_SEED || DEFAULT_SIM_SEED;
}

/** E.164 digits of a number valid in its country's plan: the only numbers the network knows. */
export function isWellFormedNumber(number: string): boolean {
  return /^[1-9][0-9]{6,14}$/.test(number) && phoneOrNull(`+${number}`) === number;
}

/** 32-bit FNV-1a with a final avalanche, fast enough for thousands of numbers a second. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: string): () => number {
  let a = hash32(seed);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST_NAMES = [
  'Budi', 'Siti', 'Agus', 'Dewi', 'Rina', 'Joko', 'Sri', 'Andi', 'Putri', 'Eko', 'Wati', 'Hendra', 'Nur',
  'Rudi', 'Fitri', 'Bambang', 'Ayu', 'Dian', 'Yusuf', 'Indah', 'Fajar', 'Lestari', 'Rizky', 'Maya', 'Arif',
  'Ratna', 'Dimas', 'Sari', 'Teguh', 'Wulan', 'Bayu', 'Intan', 'Hadi', 'Nanda', 'Gilang', 'Kartika', 'Yanti',
  'Reza', 'Anisa', 'Slamet',
];
const LAST_NAMES = [
  'Santoso', 'Wijaya', 'Saputra', 'Pratama', 'Lestari', 'Hidayat', 'Kusuma', 'Setiawan', 'Nugroho', 'Rahayu',
  'Siregar', 'Nasution', 'Hakim', 'Gunawan', 'Susanto', 'Purnama', 'Wibowo', 'Halim', 'Utami', 'Permana',
];

export interface SimContact {
  /** Whether the number has a WhatsApp account. */
  registered: boolean;
  /** Its push name when registered, else null. */
  pushname: string | null;
}

/**
 * Whether a number has WhatsApp in the simulated network and its push name. Deterministic under
 * the seed: about 70 % of well-formed numbers are registered.
 */
export function simContact(number: string, seed: string): SimContact {
  if (!isWellFormedNumber(number)) return { registered: false, pushname: null };
  const h = hash32(`${seed}|${number}`);
  if (h / 4294967296 >= REGISTERED_SHARE) return { registered: false, pushname: null };
  const g = hash32(`${number}|${seed}|name`);
  const first = FIRST_NAMES[g % FIRST_NAMES.length]!;
  // About a third of people show only their first name.
  const pushname = g % 3 === 0 ? first : `${first} ${LAST_NAMES[(g >>> 8) % LAST_NAMES.length]!}`;
  return { registered: true, pushname };
}

const MOBILE_PREFIXES = [
  '62811', '62812', '62813', '62821', '62822', '62823', '62851', '62852', '62853', '62855', '62856', '62857',
  '62858', '62877', '62878', '62881', '62882', '62895', '62896', '62897', '62898',
];

/** The i-th plausible Indonesian mobile number of a series (13 digits, 628…). */
function candidate(seed: string, salt: string, i: number): string {
  const h1 = hash32(`${seed}|${salt}|${i}`);
  const h2 = hash32(`${h1}|${i}|${salt}`);
  const prefix = MOBILE_PREFIXES[h1 % MOBILE_PREFIXES.length]!;
  return prefix + String(h2 % 100_000_000).padStart(8, '0');
}

/**
 * A deterministic list of numbers that are (or, with registered false, are not) on WhatsApp.
 * Different salts give disjoint-looking series, e.g. 'targets' for the demo's phone numbers and
 * 'accounts' for the demo's linked accounts.
 */
export function simNumbers(
  seed: string,
  limit: number,
  options: { registered?: boolean; salt?: string } = {},
): Array<{ number: string; name: string | null }> {
  const wantRegistered = options.registered ?? true;
  const salt = options.salt ?? 'numbers';
  const out: Array<{ number: string; name: string | null }> = [];
  const seen = new Set<string>();
  for (let i = 0; out.length < limit && i < limit * 20 + 100; i++) {
    const number = candidate(seed, salt, i);
    if (seen.has(number)) continue;
    seen.add(number);
    const contact = simContact(number, seed);
    if (contact.registered === wantRegistered) out.push({ number, name: contact.pushname });
  }
  return out;
}
