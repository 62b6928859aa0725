/**
 * Normaliser benchmark: 1,000,000 numbers as a spreadsheet gives them (0812…, 62812…, +62 812-…,
 * 812… with the zero dropped, landlines, 2 % invalid), through `normalizePhone` (memoised) and, on a
 * sample, through libphonenumber alone. Prints µs per number, numbers/s and whether both agree.
 *
 * `npx tsx bench/phone.ts [--rows N]` (default 1,000,000).
 */
import { normalizePhone, normalizePhoneUncached } from '../common/phone';
import { numberArg } from './lib/contacts-data';

const ROWS = numberArg('--rows', 1_000_000);
const SAMPLE = Math.min(ROWS, 50_000);
const OPERATORS = ['811', '812', '813', '821', '822', '823', '851', '852', '853', '855', '856', '857', '858', '877', '878', '881', '882', '895', '896', '897', '898', '899', '817', '818', '819', '831', '832', '838'];

let seed = 42;
const rnd = (n: number) => {
  seed = (seed * 48271) % 2147483647;
  return seed % n;
};
const digits = (n: number) => String(rnd(10 ** n)).padStart(n, '0');

function row(): string {
  const r = rnd(100);
  const sub = digits(6 + rnd(3)); // 9–11 digits after the leading 8: 0812 + 6–8 digits
  const op = OPERATORS[rnd(OPERATORS.length)] as string;
  if (r < 2) return rnd(2) ? `0804${digits(3)}` : `12${digits(4)}`; // invalid
  if (r < 7) return `021${digits(8)}`; // Jakarta landline
  if (r < 40) return `0${op}${sub}`;
  if (r < 70) return `62${op}${sub}`;
  if (r < 85) return `+62 ${op}-${sub.slice(0, 4)}-${sub.slice(4)}`;
  return `${op}${sub}`; // the spreadsheet dropped the zero
}

const rows = Array.from({ length: ROWS }, row);

function time(label: string, list: string[], fn: (s: string) => boolean): number {
  const t = process.hrtime.bigint();
  let ok = 0;
  for (const s of list) if (fn(s)) ok++;
  const us = Number(process.hrtime.bigint() - t) / 1000 / list.length;
  console.log(`${label.padEnd(34)} ${us.toFixed(3)} µs/number  ${Math.round(1e6 / us).toLocaleString('en')} numbers/s  valid ${ok.toLocaleString('en')}/${list.length.toLocaleString('en')}`);
  return us;
}

const sample = rows.slice(0, SAMPLE);
const bare = time('libphonenumber alone (sample)', sample, (s) => normalizePhoneUncached(s).ok);
const cold = time('normalizePhone, cold memo', rows, (s) => normalizePhone(s).ok);
const warm = time('normalizePhone, warm memo', rows, (s) => normalizePhone(s).ok);
let differ = 0;
for (const s of sample) if (JSON.stringify(normalizePhone(s)) !== JSON.stringify(normalizePhoneUncached(s))) differ++;
console.log(`speed-up cold ${(bare / cold).toFixed(1)}×, warm ${(bare / warm).toFixed(1)}×; answers differing from the library on the sample: ${differ}`);
if (differ) process.exitCode = 1;
