/**
 * Export benchmark: `--rows` phone numbers (default 1,000,000; `--rows 5000000` for the issue's
 * figure) exported through the real app as CSV and JSON, and a skipped list of `--skipped` rows
 * (default 200,000, from an import of a file of invalid numbers) downloaded in both formats. The
 * client reads each download as a stream and throws it away; prints time, size, rows/s, the
 * process's peak RSS during each download and the server's event-loop delay. Then `--log` message-log
 * rows (default 1,000,000, over 30 days) exported for the books (GET /api/admin/export/messagelog for the
 * whole range). Target: RSS < 300 MB.
 *
 * `npx tsx bench/export.ts [--rows N] [--skipped N] [--log N]`
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { testConfig } from '../server/src/config';
import { closeDb, openDb } from '../server/src/db/client';
import { createContext } from '../server/src/context';
import { createServer } from '../server/src/server';
import { createUser, issueToken } from '../server/src/auth/service';
import { importPhoneNumbers } from '../server/src/phonenumbers/import';
import { numberArg } from './lib/contacts-data';
import { mobileStored } from './lib/import-data';
import { wibMidnight } from '../server/src/exports/service';

const ROWS = numberArg('--rows', 1_000_000);
const SKIPPED = numberArg('--skipped', 200_000);
const LOG_ROWS = numberArg('--log', 1_000_000);

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** Answers the download's peak RSS and how far above the RSS before it that peak was. */
async function download(url: string, token: string, rows: number, label: string): Promise<{ peak: number; growth: number; lines: number }> {
  peakRss = process.memoryUsage().rss;
  const before = peakRss;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const t = performance.now();
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  if (res.status !== 200 || !res.body) throw new Error(`${label}: HTTP ${res.status}`);
  let bytes = 0;
  let lines = 0;
  const reader = res.body.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    bytes += part.value.byteLength;
    for (const b of part.value) if (b === 10) lines += 1;
  }
  const seconds = (performance.now() - t) / 1000;
  delay.disable();
  console.log(
    `${label}: ${mb(bytes)} in ${seconds.toFixed(2)} s → ${Math.round(rows / seconds).toLocaleString()} rows/s; peak RSS ${mb(peakRss)} (${mb(before)} before); ` +
      `event loop max ${(delay.max / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms`,
  );
  return { peak: peakRss, growth: peakRss - before, lines };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
  fs.mkdirSync(path.join(dir, 'uploads'));
  const db = openDb(path.join(dir, 'blast.db'));
  try {
    const c = db.$client;
    let t = Date.now();
    const ins = c.prepare('INSERT INTO phone_numbers (number, name, count_success) VALUES (?, ?, ?)');
    for (let from = 0; from < ROWS; from += 50_000) {
      c.transaction(() => {
        for (let u = from; u < Math.min(ROWS, from + 50_000); u++) ins.run(mobileStored(u), `Nama, "${u}"`, u % 3);
      })();
    }
    console.log(`prepared ${ROWS.toLocaleString()} rows in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    // The message log for the books: LOG_ROWS sends over the 30 WIB days to 2026-12-31, written before the
    // server listens (synchronous inserts would hold its event loop and cut its idle connections).
    t = Date.now();
    const logIns = c.prepare('INSERT INTO message_logs (whatsapp_id, user_id, phone_number_id, number, template_id, success, error_code, income, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const first = wibMidnight('2026-12-02').getTime();
    const span = 30 * 24 * 3_600_000;
    for (let from = 0; from < LOG_ROWS; from += 50_000) {
      c.transaction(() => {
        for (let i = from; i < Math.min(LOG_ROWS, from + 50_000); i++) {
          const ok = i % 20 !== 0;
          logIns.run(1 + (i % 50), 1 + (i % 500), i + 1, mobileStored(i), 1 + (i % 5), ok ? 1 : 0, ok ? null : 'not_on_whatsapp', ok ? 60 : 0, first + Math.floor((i / LOG_ROWS) * span));
        }
      })();
    }
    console.log(`prepared ${LOG_ROWS.toLocaleString()} message-log rows in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const ctx = createContext(testConfig({ dataDir: dir }), db, () => undefined);
    const { server, close } = createServer(ctx);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/admin/phonenumber`;
    const admin = await createUser(db, { firstname: 'Bench', lastname: 'Admin', email: 'bench@bench.test', password: 'password123', role: 'admin', referredBy: null });
    const token = await issueToken(ctx, admin, false);

    let peak = 0;
    let growth = 0;
    for (const format of ['csv', 'json'] as const) {
      const r = await download(`${url}/export?format=${format}`, token, ROWS, `export ${format}`);
      peak = Math.max(peak, r.peak);
      growth = Math.max(growth, r.growth);
    }

    t = Date.now();
    const file = path.join(dir, 'invalid.csv');
    fs.writeFileSync(file, Array.from({ length: SKIPPED }, (_, i) => `bukan-${i},Nama ${i}`).join('\n'));
    const result = await importPhoneNumbers(db, file, 'csv', { skippedDir: path.join(dir, 'tmp', 'skipped') });
    console.log(`skipped list of ${result.skippedCount.toLocaleString()} rows written in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    for (const format of ['csv', 'json'] as const) {
      growth = Math.max(growth, (await download(`${url}/skipped/${result.skippedFile}?format=${format}`, token, SKIPPED, `skipped ${format}`)).growth);
    }

    const base = url.replace(/\/phonenumber$/, '');
    const log = await download(`${base}/export/messagelog?from=2026-12-02&to=2026-12-31`, token, LOG_ROWS, 'message log csv');
    if (log.lines !== LOG_ROWS + 1) throw new Error(`message log export: ${log.lines - 1} rows, expected ${LOG_ROWS}`);
    await close();
    // The skipped downloads follow an import whose worker memory is still being returned, so their
    // own peak says little; what any download adds above the RSS before it is what stays bounded.
    console.log(
      `RESULT export rows=${ROWS} skipped=${SKIPPED} export_peakRSS_MB=${(peak / 1e6).toFixed(0)} max_growth_during_a_download_MB=${(growth / 1e6).toFixed(0)} target: <300 MB`,
    );
    console.log(
      `RESULT messagelog rows=${LOG_ROWS} messagelog_peakRSS_MB=${(log.peak / 1e6).toFixed(0)} growth_MB=${(log.growth / 1e6).toFixed(0)} target: <300 MB ${log.peak < 300e6 ? 'PASS' : 'FAIL'}`,
    );
  } finally {
    clearInterval(sampler);
    closeDb(db);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
