/**
 * Import benchmark: a generated CSV of 1,000,000 rows (5 % repeated in the file, 2 % invalid, every
 * tenth name quoted, the first 1 % already in the table) imported into a table already holding
 * `--existing` numbers (default 100,000), each run on its own copy of the same database file:
 *
 * 1. through the service (`importPhoneNumbers`, which runs the import in a worker thread);
 * 2. through HTTP (the real app: multipart upload by curl from another process, auth, the same
 *    service), while a client asks `GET /api/config` every 10 ms and the server's event-loop delay
 *    is recorded;
 * 3. through the compiled server (`dist/server/main.js`, built first if stale) in its own process, as
 *    `npm start` runs it: the same upload by curl; the server process's own peak RSS (VmHWM, the
 *    worker thread included) is the product's figure, free of this process's benchmark state;
 * 4. the staged sqlite3 floor: the command-line tool's `.import` into a staging table, then one
 *    `INSERT OR IGNORE … ORDER BY number`;
 * 5. with DATABASE_URL on PostgreSQL, 2. again into a fresh schema there holding the same rows (the
 *    import stages the file through COPY), with its rate against SQLite's HTTP rate of the same run.
 *
 * Prints rows/s, peak RSS (the whole process, worker included) and the /api/config latencies.
 * `npx tsx bench/import.ts [--rows N] [--existing N]`
 */
import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { testConfig } from '../server/src/config';
import type pg from 'pg';
import { closeDb, openDb, type Db } from '../server/src/db/client';
import { createPostgresTestDb, isPostgresUrl } from '../server/src/db/postgres';
import { seedSettings } from '../server/src/settings/service';
import { createContext } from '../server/src/context';
import { createServer } from '../server/src/server';
import { createUser, issueToken } from '../server/src/auth/service';
import { importPhoneNumbers, type ImportResult } from '../server/src/phonenumbers/import';
import { ensurePhoneSearch, indexAll } from '../server/src/phonenumbers/search';
import { numberArg } from './lib/contacts-data';
import { mobileStored, sqliteFloor, writeImportCsv } from './lib/import-data';
import { procMemory } from './lib/proc';
import { startServerProcess, stopServerProcesses } from '../tests/server-process';

// The HTTP run's server logs a line per request (thousands of /api/config probes); warnings and errors only.
process.env.LOG_LEVEL ??= 'warn';

const ROWS = numberArg('--rows', 1_000_000);
/** The PostgreSQL run's server (a schema of its own is made there); none when DATABASE_URL is not PostgreSQL. */
const PG_URL = process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
const EXISTING = numberArg('--existing', 100_000);
const OVERLAP = Math.min(EXISTING, Math.floor(ROWS / 100));

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;
};
const counts = (r: ImportResult) => `created ${r.createdCount.toLocaleString()}, skipped ${r.skippedCount.toLocaleString()}`;
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

function copyDb(dir: string, base: string, name: string): string {
  const file = path.join(dir, name);
  fs.copyFileSync(base, file);
  return file;
}

async function viaService(dir: string, base: string, csv: string) {
  const db = openDb(copyDb(dir, base, 'service.db'));
  peakRss = process.memoryUsage().rss;
  const before = peakRss;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const result = await importPhoneNumbers(db, csv, 'csv', { skippedDir: path.join(dir, 'skipped') });
  const seconds = (performance.now() - t) / 1000;
  const cpuUsed = cpuSeconds(cpu);
  delay.disable();
  closeDb(db);
  return { result, seconds, cpuUsed, before, peak: peakRss, loopMax: delay.max / 1e6, loopP99: delay.percentile(99) / 1e6 };
}

/**
 * Uploads with curl in its own process when there is one (so the figures are the server's alone),
 * else with fetch from this process.
 */
async function upload(url: string, token: string, csv: string, answer: string): Promise<{ status: number; result: ImportResult }> {
  const args = ['-s', '-o', answer, '-w', '%{http_code}', '-H', `Authorization: Bearer ${token}`, '-F', `file=@${csv};filename=numbers.csv;type=text/csv`, url];
  const curl = await new Promise<string | null>((resolve) => {
    execFile('curl', args, { maxBuffer: 1 << 20 }, (err, stdout) => resolve(err ? null : stdout));
  });
  if (curl !== null) return { status: Number(curl), result: JSON.parse(fs.readFileSync(answer, 'utf8')) as ImportResult };
  const body = new FormData();
  body.append('file', await fs.openAsBlob(csv, { type: 'text/csv' }), 'numbers.csv');
  const res = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body });
  return { status: res.status, result: (await res.json()) as ImportResult };
}

async function viaHttp(dir: string, base: string, csv: string) {
  return httpRun(dir, openDb(copyDb(dir, base, 'http.db')), csv, 'http');
}

/**
 * The same upload into PostgreSQL: a fresh schema on DATABASE_URL holding the same existing rows (the
 * import stages the file there through COPY); dropped afterwards.
 */
async function viaHttpPostgres(dir: string, csv: string) {
  const db = await createPostgresTestDb(PG_URL!);
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  for (let from = 0; from < EXISTING; from += 10_000) {
    const ids = Array.from({ length: Math.min(EXISTING, from + 10_000) - from }, (_, i) => from + i);
    await pool.query('INSERT INTO phone_numbers (number, name) SELECT * FROM unnest($1::text[], $2::text[])', [ids.map(mobileStored), ids.map((u) => `Ada ${u}`)]);
  }
  await pool.query('ANALYZE phone_numbers');
  await seedSettings(db as unknown as Db);
  return httpRun(dir, db as unknown as Db, csv, 'pg');
}

async function httpRun(dir: string, db: Db, csv: string, name: string) {
  const dataDir = path.join(dir, `${name}-data`);
  fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
  const ctx = createContext(testConfig({ dataDir }), db, () => undefined);
  const { server, close } = createServer(ctx);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const admin = await createUser(db, { firstname: 'Bench', lastname: 'Admin', email: 'bench@bench.test', password: 'password123', role: 'admin', referredBy: null });
  const token = await issueToken(ctx, admin, false);

  const configMs: number[] = [];
  let importing = true;
  const probe = (async () => {
    while (importing) {
      const t0 = performance.now();
      await (await fetch(`${url}/api/config`)).arrayBuffer();
      configMs.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  peakRss = process.memoryUsage().rss;
  const before = peakRss;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const { status, result } = await upload(`${url}/api/admin/phonenumber/import`, token, csv, path.join(dir, `answer-${name}.json`));
  const seconds = (performance.now() - t) / 1000;
  const cpuUsed = cpuSeconds(cpu);
  delay.disable();
  importing = false;
  await probe;
  await close();
  await closeDb(db);
  if (status !== 200) throw new Error(`HTTP import answered ${status}: ${JSON.stringify(result)}`);
  return {
    result,
    seconds,
    cpuUsed,
    before,
    peak: peakRss,
    loopMax: delay.max / 1e6,
    loopP99: delay.percentile(99) / 1e6,
    config: { n: configMs.length, p50: percentile(configMs, 50), p99: percentile(configMs, 99), max: Math.max(0, ...configMs) },
  };
}

async function viaCompiledServer(dir: string, base: string, csv: string) {
  const dataDir = path.join(dir, 'compiled-data');
  fs.mkdirSync(dataDir, { recursive: true });
  copyDb(dataDir, base, 'blast.db');
  const db = openDb(path.join(dataDir, 'blast.db'));
  await createUser(db, { firstname: 'Bench', lastname: 'Admin', email: 'bench@bench.test', password: 'password123', role: 'admin', referredBy: null });
  await closeDb(db);
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale', 'server'], { stdio: 'inherit' });
  const children: ChildProcess[] = [];
  try {
    const server = await startServerProcess(dataDir, { LOG_LEVEL: 'warn', NODE_ENV: 'development' }, children, 60_000, 'built');
    const login = await fetch(`${server.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'bench@bench.test', password: 'password123' }),
    });
    const { token } = (await login.json()) as { token: string };
    // Settled after start-up: the figure before the upload.
    await new Promise((r) => setTimeout(r, 1000));
    const before = procMemory(server.child.pid!, 'VmRSS') ?? 0;
    const t = performance.now();
    const { status, result } = await upload(`${server.base}/api/admin/phonenumber/import`, token, csv, path.join(dir, 'answer-compiled.json'));
    const seconds = (performance.now() - t) / 1000;
    const peak = procMemory(server.child.pid!, 'VmHWM');
    if (status !== 200) throw new Error(`the compiled server answered ${status}: ${JSON.stringify(result)}`);
    return { result, seconds, before, peak };
  } finally {
    await stopServerProcesses(children);
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
  try {
    const base = path.join(dir, 'base.db');
    const db = openDb(base);
    await ensurePhoneSearch(db);
    const c = db.$client;
    let t = Date.now();
    const ins = c.prepare('INSERT INTO phone_numbers (number, name) VALUES (?, ?)');
    for (let from = 0; from < EXISTING; from += 50_000) {
      c.transaction(() => {
        for (let u = from; u < Math.min(EXISTING, from + 50_000); u++) ins.run(mobileStored(u), `Ada ${u}`);
      })();
    }
    await indexAll(db);
    closeDb(db);
    console.log(`prepared ${EXISTING.toLocaleString()} existing rows in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    const csv = path.join(dir, 'numbers.csv');
    t = Date.now();
    const file = await writeImportCsv(csv, ROWS, EXISTING - OVERLAP);
    console.log(
      `file: ${file.rows.toLocaleString()} rows, ${mb(file.bytes)}, ${file.invalid.toLocaleString()} invalid, ${file.repeated.toLocaleString()} repeated, ` +
        `${OVERLAP.toLocaleString()} already in the table (written in ${((Date.now() - t) / 1000).toFixed(1)} s)`,
    );

    const service = await viaService(dir, base, csv);
    const serviceRate = ROWS / service.seconds;
    console.log(
      `service: ${counts(service.result)} in ${service.seconds.toFixed(2)} s (${service.cpuUsed.toFixed(2)} s CPU) → ${Math.round(serviceRate).toLocaleString()} rows/s; ` +
        `peak RSS ${mb(service.peak)} (${mb(service.before)} before); event loop max ${ms(service.loopMax)}, p99 ${ms(service.loopP99)}`,
    );

    const web = await viaHttp(dir, base, csv);
    const httpRate = ROWS / web.seconds;
    console.log(
      `HTTP: ${counts(web.result)} in ${web.seconds.toFixed(2)} s (${web.cpuUsed.toFixed(2)} s CPU) → ${Math.round(httpRate).toLocaleString()} rows/s; peak RSS ${mb(web.peak)} (${mb(web.before)} before); ` +
        `event loop max ${ms(web.loopMax)}, p99 ${ms(web.loopP99)}; /api/config ×${web.config.n} p50 ${ms(web.config.p50)} p99 ${ms(web.config.p99)} max ${ms(web.config.max)}`,
    );

    let pgRate: number | null = null;
    if (PG_URL) {
      const onPg = await viaHttpPostgres(dir, csv);
      pgRate = ROWS / onPg.seconds;
      // The same file into the same existing rows: the same answer, whatever the database.
      if (onPg.result.createdCount !== web.result.createdCount || onPg.result.skippedCount !== web.result.skippedCount) {
        throw new Error(`PostgreSQL ${counts(onPg.result)}, SQLite ${counts(web.result)}`);
      }
      console.log(
        `HTTP on PostgreSQL (COPY into staging): ${counts(onPg.result)} in ${onPg.seconds.toFixed(2)} s (${onPg.cpuUsed.toFixed(2)} s CPU) → ${Math.round(pgRate).toLocaleString()} rows/s ` +
          `= ${(pgRate / httpRate).toFixed(2)}× SQLite's HTTP rate in this run; event loop max ${ms(onPg.loopMax)}, p99 ${ms(onPg.loopP99)}; /api/config p99 ${ms(onPg.config.p99)}; load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`,
      );
    } else {
      console.log('DATABASE_URL is not a PostgreSQL URL: no PostgreSQL run');
    }

    const compiled = await viaCompiledServer(dir, base, csv);
    const compiledRate = ROWS / compiled.seconds;
    console.log(
      `compiled server (own process): ${counts(compiled.result)} in ${compiled.seconds.toFixed(2)} s → ${Math.round(compiledRate).toLocaleString()} rows/s; ` +
        `server peak RSS ${compiled.peak === null ? '(no /proc)' : mb(compiled.peak)} (${mb(compiled.before)} before the upload)`,
    );

    let floor: { seconds: number; added: number } | null = null;
    try {
      floor = sqliteFloor(copyDb(dir, base, 'floor.db'), csv);
    } catch (err) {
      console.log('sqlite3 command-line tool not available:', err instanceof Error ? err.message : err);
    }
    // A floor that adds other rows than the import measures other work.
    if (floor && floor.added !== service.result.createdCount) {
      throw new Error(`the sqlite3 floor added ${floor.added.toLocaleString()} rows, the import ${service.result.createdCount.toLocaleString()}`);
    }
    const floorRate = floor ? ROWS / floor.seconds : null;
    if (floor && floorRate) {
      console.log(
        `sqlite3 floor (.import into staging, then INSERT OR IGNORE … ORDER BY number): ${floor.added.toLocaleString()} rows added in ${floor.seconds.toFixed(2)} s → ${Math.round(floorRate).toLocaleString()} rows/s`,
      );
    }
    const ratio = (rate: number) => (floorRate ? ` (${(rate / floorRate).toFixed(2)}× floor)` : '');
    console.log(
      `RESULT import rows=${ROWS} service_rows/s=${Math.round(serviceRate)}${ratio(serviceRate)} http_rows/s=${Math.round(httpRate)}${ratio(httpRate)} ` +
        `pg_http_rows/s=${pgRate === null ? '-' : `${Math.round(pgRate)} (${(pgRate / httpRate).toFixed(2)}× SQLite HTTP)`} compiled_rows/s=${Math.round(compiledRate)} compiled_server_peakRSS_MB=${compiled.peak === null ? '-' : (compiled.peak / 1e6).toFixed(0)} ` +
        `bench_process_peakRSS_MB=${(Math.max(service.peak, web.peak) / 1e6).toFixed(0)} config_p99_ms=${web.config.p99.toFixed(1)} ` +
        `targets: ≥250000 service, ≥100000 HTTP, ≤300 MB, /api/config p99 <200 ms`,
    );
  } finally {
    clearInterval(sampler);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
