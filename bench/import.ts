/**
 * Import benchmark: a generated 1,000,000-row CSV (10 % of its rows already in the table)
 * imported into a table already holding 1,000,000 numbers, through the real import service on a
 * database file. Compared with the sqlite3 command-line `.import` of the same file into an empty
 * table, in the same run. Prints rows/s, peak RSS and the ratio.
 *
 * `npx tsx bench/import.ts [--rows N]` (default 1,000,000).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeDb, openDb } from '../server/src/db/client';
import { importPhoneNumbers } from '../server/src/phonenumbers/import';
import { ensurePhoneSearch, indexAll } from '../server/src/phonenumbers/search';
import { benchName, benchNumber, numberArg } from './lib/contacts-data';

const ROWS = numberArg('--rows', 1_000_000);
const EXISTING = numberArg('--existing', ROWS);

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
  const dbFile = path.join(dir, 'blast.db');
  const csv = path.join(dir, 'numbers.csv');
  try {
    const db = openDb(dbFile);
    ensurePhoneSearch(db);
    const c = db.$client;
    let t = Date.now();
    const ins = c.prepare('INSERT INTO phone_numbers (number, name) VALUES (?, ?)');
    for (let from = 0; from < EXISTING; from += 50_000) {
      c.transaction(() => {
        for (let i = from; i < Math.min(EXISTING, from + 50_000); i++) ins.run(benchNumber(i), benchName(i));
      })();
    }
    indexAll(db);
    console.log(`prepared ${EXISTING.toLocaleString()} existing rows (indexed for search) in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    // 10 % of the file's rows are numbers already in the table (every tenth row).
    const out = fs.createWriteStream(csv);
    out.write('number,name\n');
    for (let i = 0; i < ROWS; i++) {
      const k = i % 10 === 0 && i < EXISTING ? i : EXISTING + i;
      const n = benchNumber(k);
      if (!out.write(`0${n.slice(2)},${benchName(k)}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((r) => out.end(() => r()));
    const size = fs.statSync(csv).size;
    console.log(`file: ${ROWS.toLocaleString()} rows, ${(size / 1e6).toFixed(1)} MB`);

    peakRss = process.memoryUsage().rss;
    const rssBefore = peakRss;
    t = performance.now();
    const at: Record<string, number> = {};
    const result = await importPhoneNumbers(db, csv, 'csv', {
      skippedDir: path.join(dir, 'skipped'),
      onProgress: (p) => {
        at[p.phase] ??= performance.now();
      },
    });
    const end = performance.now();
    const phase = (from: number | undefined, to: number | undefined) => (((to ?? end) - (from ?? t)) / 1000).toFixed(2);
    const seconds = (performance.now() - t) / 1000;
    const rate = ROWS / seconds;
    console.log(
      `import: created ${result.createdCount.toLocaleString()}, skipped ${result.skippedCount.toLocaleString()} in ${seconds.toFixed(2)} s → ${Math.round(rate).toLocaleString()} rows/s; peak RSS ${(peakRss / 1e6).toFixed(0)} MB (${(rssBefore / 1e6).toFixed(0)} MB before); reading and staging ${phase(t, at.checking)} s, repeat check ${phase(at.checking, at.saving)} s, final transaction and answer ${phase(at.saving, end)} s`,
    );
    closeDb(db);

    let cliRate: number | null = null;
    try {
      const cliDb = path.join(dir, 'cli.db');
      const ct = performance.now();
      execFileSync('sqlite3', [cliDb, '-cmd', 'CREATE TABLE numbers (number TEXT, name TEXT)', '.mode csv', `.import --skip 1 ${csv} numbers`], { stdio: 'pipe' });
      const cs = (performance.now() - ct) / 1000;
      cliRate = ROWS / cs;
      console.log(`sqlite3 .import into an empty table: ${cs.toFixed(2)} s → ${Math.round(cliRate).toLocaleString()} rows/s`);
    } catch (err) {
      console.log('sqlite3 command-line tool not available:', err instanceof Error ? err.message : err);
    }
    console.log(
      `RESULT import rows/s=${Math.round(rate)} peakRSS_MB=${(peakRss / 1e6).toFixed(0)}${cliRate ? ` ratio_vs_sqlite3=${(rate / cliRate).toFixed(2)}` : ''} target: ≥100000 rows/s, ≤512 MB`,
    );
  } finally {
    clearInterval(sampler);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
