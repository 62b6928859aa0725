/** Generated import files and the sqlite3 floor shared by the import benchmark. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { benchName } from './contacts-data';

// Indonesian mobile prefixes (after the leading 0), so every generated number is a real mobile range.
const PREFIXES = ['811', '812', '813', '821', '822', '823', '851', '852', '853', '855', '856', '857', '858', '877', '878', '881', '882', '895', '896', '897', '898', '899'];

/** The u-th distinct mobile number, written locally (`08…`, 12 digits); a bijection on 8-digit suffixes. */
export function mobileLocal(u: number): string {
  const prefix = PREFIXES[u % PREFIXES.length]!;
  const suffix = String((Math.floor(u / PREFIXES.length) * 2654435761) % 100_000_000).padStart(8, '0');
  return `0${prefix}${suffix}`;
}

export const mobileStored = (u: number) => `62${mobileLocal(u).slice(1)}`;

export interface ImportFile {
  rows: number;
  bytes: number;
  invalid: number;
  repeated: number;
}

/**
 * A CSV with a header: 2 % invalid rows, 5 % repeats of a number earlier in the file, every tenth
 * name quoted with a comma inside. Numbers start at `offset` (rows already in the table lie below).
 */
export async function writeImportCsv(file: string, rows: number, offset: number): Promise<ImportFile> {
  const out = fs.createWriteStream(file);
  let invalid = 0;
  let repeated = 0;
  let unique = 0;
  let text = 'number,name\n';
  for (let i = 0; i < rows; i++) {
    let number: string;
    if (i % 50 === 7) {
      number = `bukan-nomor-${i}`;
      invalid += 1;
    } else if (i % 20 === 3 && unique > 0) {
      number = mobileLocal(offset + Math.floor(unique / 2));
      repeated += 1;
    } else number = mobileLocal(offset + unique++);
    const name = i % 10 === 0 ? `"${benchName(i)}, Jr"` : benchName(i);
    text += `${number},${name}\n`;
    if (text.length > 1 << 16) {
      if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()));
      text = '';
    }
  }
  out.write(text);
  await new Promise<void>((r) => out.end(() => r()));
  return { rows, bytes: fs.statSync(file).size, invalid, repeated };
}

/**
 * The staged sqlite3 floor: the command-line tool's `.import` of the same file into a staging table,
 * then one `INSERT OR IGNORE … ORDER BY number` of the numbers in stored form (local 0 → 62, rows
 * that are not digits dropped) into a copy of the same database, with the columns an import writes
 * (name, line type, creation time). Answers the seconds it took and the rows it added.
 *
 * The creation time is given: the table's default, `unixepoch('subsec')`, needs SQLite 3.42, and an
 * older command-line tool (Debian 12 ships 3.40) reads it as NULL, so `OR IGNORE` would silently drop
 * every row and time a sort that inserts nothing. The caller compares the rows added with the import's.
 */
export function sqliteFloor(dbFile: string, csv: string): { seconds: number; added: number } {
  const count = () => Number(execFileSync('sqlite3', [dbFile, 'SELECT count(*) FROM phone_numbers'], { encoding: 'utf8' }).trim());
  const before = count();
  const t = performance.now();
  execFileSync(
    'sqlite3',
    [
      dbFile,
      '-cmd',
      'PRAGMA synchronous = NORMAL',
      '-cmd',
      'CREATE TEMP TABLE staging (number TEXT, name TEXT)',
      '.mode csv',
      `.import --skip 1 --schema temp ${csv} staging`,
      `INSERT OR IGNORE INTO phone_numbers (number, name, line_type, created_at)
         SELECT '62' || substr(number, 2), name, 'mobile', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
         FROM temp.staging WHERE number GLOB '0[0-9]*' AND number NOT GLOB '*[^0-9]*' ORDER BY 1;`,
    ],
    { stdio: 'pipe' },
  );
  const seconds = (performance.now() - t) / 1000;
  return { seconds, added: count() - before };
}
