/**
 * List benchmark: the big lists through the real app at 1M and 5M phone numbers, each scenario three
 * ways: over HTTP to the compiled server in its own process, as `npm start` runs it (auth, JSON, the
 * database file; GET /api/config is printed as the HTTP floor), timed by this process and by the
 * server's own request log; the same service call in this process; and beside it the bare SQL a
 * plain list would run on the same data (OFFSET paging plus count(*), LIKE search). Prints p50 / p99;
 * target p99 < 20 ms for the app.
 *
 * Phone numbers: page 1, a middle page, the last page, search by number prefix, number infix and name.
 * Members, WhatsApp accounts, generator and validator jobs: page 1, middle, last, a search.
 *
 * With DATABASE_URL on PostgreSQL, the phone-number scenarios run there too at each size: a fresh
 * schema filled with the same numbers, the app in this process over HTTP and as a service call.
 *
 * `npx tsx bench/list.ts [--sizes 1000000,5000000] [--requests 200] [--bare 10]
 *   [--members 10000] [--accounts 20000] [--jobs 10000] [--pg-only]`
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { testConfig } from '../server/src/config';
import { closeDb, openDb, type Db } from '../server/src/db/client';
import { createPostgresTestDb, isPostgresUrl } from '../server/src/db/postgres';
import { seedSettings } from '../server/src/settings/service';
import { createServer } from '../server/src/server';
import { issueToken } from '../server/src/auth/service';
import { createContext, type AppContext } from '../server/src/context';
import type { AuthUser } from '../server/src/auth/middleware';
import { phoneNumbersPerPage } from '../server/src/phonenumbers/service';
import { membersPerPage } from '../server/src/users/service';
import { listPerPage } from '../server/src/whatsapp/service';
import { listGenerators } from '../server/src/generators/service';
import { listValidators } from '../server/src/validators/service';
import { createUser } from '../server/src/auth/service';
import { startServerProcess, stopServerProcesses, type ServerProcess } from '../tests/server-process';
import { ensurePhoneSearch, indexAll } from '../server/src/phonenumbers/search';
import { foldNewRows } from '../server/src/phonenumbers/counters';
import { benchNumber, numberArg } from './lib/contacts-data';
import { fillOthers, fillPhoneNumbers } from './lib/list-fill';

const argIndex = process.argv.indexOf('--sizes');
const SIZES = argIndex > 0 ? process.argv[argIndex + 1]!.split(',').map(Number) : [1_000_000, 5_000_000];
const REQUESTS = numberArg('--requests', 200);
const BARE = numberArg('--bare', 10);
const PG_URL = process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
const OTHERS = { members: numberArg('--members', 10_000), accounts: numberArg('--accounts', 20_000), jobs: numberArg('--jobs', 10_000) };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function stats(times: number[]): string {
  const s = [...times].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(2).padStart(7)} p99 ${percentile(s, 99).toFixed(2).padStart(7)}`;
}

/** The bare statements of one scenario: a page of rows and the count a plain list runs beside it. */
interface Bare {
  rows: string;
  count: string;
  params: unknown[];
  countParams?: unknown[];
}

interface Scenario {
  label: string;
  query: (i: number) => string;
  bare: Bare;
  /** The same page through the service function, in process (no HTTP). */
  direct: (ctx: AppContext, caller: AuthUser) => unknown;
}

async function directTimes(run: () => unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS + 5; i++) {
    const start = performance.now();
    await run();
    if (i >= 5) times.push(performance.now() - start);
  }
  return times;
}

function bareTimes(c: Database.Database, bare: Bare): number[] {
  const rows = c.prepare(bare.rows);
  const count = c.prepare(bare.count);
  const times: number[] = [];
  for (let i = 0; i < BARE + 1; i++) {
    const start = performance.now();
    rows.all(...bare.params);
    count.get(...(bare.countParams ?? []));
    if (i > 0) times.push(performance.now() - start);
  }
  return times;
}

/**
 * The requests' times as this process saw them, and the server's own for each (the `ms` of its
 * request log: from the request's arrival to its response's end, whole milliseconds).
 */
async function httpTimes(server: ServerProcess, url: (i: number) => string, headers: Record<string, string>): Promise<{ times: number[]; own: number[]; total: number }> {
  const times: number[] = [];
  const logFrom = server.output().length;
  let total = 0;
  for (let i = 0; i < REQUESTS + 5; i++) {
    const start = performance.now();
    // An idle keep-alive connection may have been closed by the server meanwhile: retry once.
    const res = await fetch(url(i), { headers }).catch(() => fetch(url(i), { headers }));
    const body = (await res.json()) as { data?: unknown[]; meta?: { total: number } };
    const ms = performance.now() - start;
    if (!res.ok) throw new Error(`HTTP ${res.status} for ${url(i)}`);
    total = body.meta?.total ?? 0;
    if (i >= 5) times.push(ms); // the first few warm the caches
  }
  await new Promise((r) => setTimeout(r, 100));
  const own = server
    .output()
    .slice(logFrom)
    .split('\n')
    .filter((line) => line.includes('"request completed"'))
    .map((line) => (JSON.parse(line) as { ms: number }).ms)
    .slice(5);
  return { times, own, total };
}

const like = (text: string) => `%${text}%`;

function phoneScenarios(rows: number): Scenario[] {
  const pages = Math.ceil(rows / 10);
  const page = (p: number): Scenario['bare'] => ({
    rows: 'SELECT * FROM phone_numbers ORDER BY id LIMIT 10 OFFSET ?',
    count: 'SELECT count(*) FROM phone_numbers',
    params: [(p - 1) * 10],
  });
  // The same page of the same search as the request it stands beside.
  const search = (text: string, p = 1): Scenario['bare'] => ({
    rows: 'SELECT * FROM phone_numbers WHERE number LIKE ? OR name LIKE ? ORDER BY id LIMIT 10 OFFSET ?',
    count: 'SELECT count(*) FROM (SELECT 1 FROM phone_numbers WHERE number LIKE ? OR name LIKE ? LIMIT 10001)',
    params: [like(text), like(text), (p - 1) * 10],
    countParams: [like(text), like(text)],
  });
  const infix = benchNumber(Math.floor(rows / 3)).slice(4, 11);
  // A different number's digits on every request, so no request reuses a cached search.
  const someInfix = (i: number) => benchNumber((i * 9973 + 17) % rows).slice(5, 11);
  const names = ['wijaya 42', 'Siti Lestari 7', 'hidayat 99', 'Rudi Kusuma 123', 'eko pratama 5', 'nugroho 31'];
  return [
    { label: 'page 1', query: () => '?page=1', bare: page(1), direct: (ctx) => phoneNumbersPerPage(ctx, 1, '') },
    { label: `middle page ${Math.ceil(pages / 2)}`, query: () => `?page=${Math.ceil(pages / 2)}`, bare: page(Math.ceil(pages / 2)), direct: (ctx) => phoneNumbersPerPage(ctx, Math.ceil(pages / 2), '') },
    { label: `last page ${pages}`, query: () => `?page=${pages}`, bare: page(pages), direct: (ctx) => phoneNumbersPerPage(ctx, pages, '') },
    { label: 'search prefix 0812345', query: () => '?search=0812345', bare: search('62812345'), direct: (ctx) => phoneNumbersPerPage(ctx, 1, '0812345') },
    { label: `search infix ${infix}`, query: () => `?search=${infix}`, bare: search(infix), direct: (ctx) => phoneNumbersPerPage(ctx, 1, infix) },
    { label: 'search infix, new text each time', query: (i) => `?search=${someInfix(i)}`, bare: search(someInfix(1)), direct: (ctx) => phoneNumbersPerPage(ctx, 1, someInfix(Math.floor(Math.random() * 1e6))) },
    { label: 'search name "wijaya 42"', query: () => '?search=wijaya%2042', bare: search('wijaya 42'), direct: (ctx) => phoneNumbersPerPage(ctx, 1, 'wijaya 42') },
    { label: 'search 6 names, page 1-3', query: (i) => `?page=${1 + (i % 3)}&search=${encodeURIComponent(names[i % names.length]!)}`, bare: search('hidayat 99', 2), direct: (ctx) => phoneNumbersPerPage(ctx, 1 + Math.floor(Math.random() * 3), names[Math.floor(Math.random() * names.length)]!) },
    { label: 'search common name "budi", last page', query: () => '?page=1000&search=budi', bare: search('budi', 1000), direct: (ctx) => phoneNumbersPerPage(ctx, 1000, 'budi') },
  ];
}

function otherScenarios(): Array<Scenario & { path: string }> {
  type Direct = (ctx: AppContext, caller: AuthUser, page: number, search: string) => unknown;
  const list = (label: string, apiPath: string, table: string, where: string, total: number, searchText: string, searchWhere: string, fn: Direct) => {
    const pages = Math.ceil(total / 10);
    const page = (p: number): Bare => ({
      rows: `SELECT * FROM ${table} WHERE ${where} ORDER BY id DESC LIMIT 10 OFFSET ?`,
      count: `SELECT count(*) FROM ${table} WHERE ${where}`,
      params: [(p - 1) * 10],
    });
    return [
      { path: apiPath, label: `${label} page 1`, query: () => '?page=1', bare: page(1), direct: (ctx: AppContext, u: AuthUser) => fn(ctx, u, 1, '') },
      { path: apiPath, label: `${label} middle`, query: () => `?page=${Math.ceil(pages / 2)}`, bare: page(Math.ceil(pages / 2)), direct: (ctx: AppContext, u: AuthUser) => fn(ctx, u, Math.ceil(pages / 2), '') },
      { path: apiPath, label: `${label} last`, query: () => `?page=${pages}`, bare: page(pages), direct: (ctx: AppContext, u: AuthUser) => fn(ctx, u, pages, '') },
      {
        path: apiPath,
        label: `${label} search "${searchText}"`,
        query: () => `?search=${encodeURIComponent(searchText)}`,
        bare: { rows: `SELECT * FROM ${table} WHERE ${searchWhere} ORDER BY id DESC LIMIT 10 OFFSET ?`, count: `SELECT count(*) FROM ${table} WHERE ${searchWhere}`, params: [0] },
        direct: (ctx: AppContext, u: AuthUser) => fn(ctx, u, 1, searchText),
      },
    ];
  };
  return [
    ...list('members', '/api/admin/users/members-per-page', 'users', "role = 'member'", OTHERS.members, 'wijaya', "role = 'member' AND (firstname LIKE '%wijaya%' OR lastname LIKE '%wijaya%' OR email LIKE '%wijaya%')", (ctx, _u, page, search) => membersPerPage(ctx, page, search)),
    ...list('whatsapp', '/api/admin/whatsapp/list-per-page', 'whatsapps', '1', OTHERS.accounts, 'Siti', "pushname LIKE '%Siti%' OR phonenumber LIKE '%Siti%' OR clientid LIKE '%Siti%'", (ctx, u, page, search) => listPerPage(ctx, u, { page, userId: null, synced: false, search })),
    ...list('generators', '/api/admin/generator/list-per-page', 'generators', '1', OTHERS.jobs, '628100012', "start_number LIKE '%628100012%' OR end_number LIKE '%628100012%'", (ctx, u, page, search) => listGenerators(ctx, u, { page, userId: null, search, status: '' })),
    ...list('validators', '/api/admin/validator/list-per-page', 'validators', '1', OTHERS.jobs, 'daftar-12', "file_name LIKE '%daftar-12%'", (ctx, u, page, search) => listValidators(ctx, u, { page, userId: null, search, status: '' })),
  ];
}

async function runSize(rows: number): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-list-'));
  fs.mkdirSync(path.join(dir, 'uploads'));
  const db = openDb(path.join(dir, 'blast.db'));
  const lines: string[] = [];
  const children: ChildProcess[] = [];
  try {
    await ensurePhoneSearch(db);
    const c = db.$client;
    let t = performance.now();
    fillPhoneNumbers(c, 0, rows);
    await fillOthers(db, OTHERS);
    console.log(`filled ${rows.toLocaleString()} phone numbers and ${JSON.stringify(OTHERS)} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    // All of it now: a first read folds one step and leaves the rest to background steps, which would
    // run during the measurements (and hold the write lock against the server process's start).
    await foldNewRows(db);
    console.log(`counters folded in ${((performance.now() - t) / 1000).toFixed(2)} s`);
    t = performance.now();
    await indexAll(db);
    console.log(`search index built in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const ctx = createContext(testConfig({ dataDir: dir }), db, () => undefined);
    const admin = await createUser(db, { firstname: 'Bench', lastname: 'Admin', email: 'bench@admin.test', password: 'password123', role: 'admin', referredBy: null });
    // The server in its own process on the same database file, so the requests' client and the
    // server do not share an event loop (or a garbage collector). The fill's write-ahead log (GBs at
    // 5M rows) is folded into the file first: the server starts on a settled database, as it would.
    c.pragma('wal_checkpoint(TRUNCATE)');
    // It logs each request (info, JSON) with its own time.
    const server = await startServerProcess(dir, { LOG_LEVEL: 'info', NODE_ENV: 'development' }, children, 120_000, 'built');
    const base = server.base;
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'bench@admin.test', password: 'password123' }),
    });
    const { token } = (await login.json()) as { token: string };
    // Let the start-up's background work (re-opening the saved sessions) finish first.
    await new Promise((r) => setTimeout(r, 3000));
    const headers = { Authorization: `Bearer ${token}` };
    const caller: AuthUser = { id: admin.id, role: 'admin', firstname: admin.firstname, lastname: admin.lastname, email: admin.email, token, expiresAt: Date.now() + 86_400_000 };
    const all = [...phoneScenarios(rows).map((s) => ({ ...s, path: '/api/admin/phonenumber/list-per-page' })), ...otherScenarios()];
    console.log(
      `${'scenario'.padEnd(36)} ${'over HTTP, client (ms)'.padEnd(28)} ${"server's own (ms)".padEnd(28)} ${'app in process (ms)'.padEnd(28)} ${'bare SQL (ms)'.padEnd(26)} total`,
    );
    const floor = await httpTimes(server, () => `${base}/api/config`, headers);
    console.log(`${'HTTP floor: GET /api/config'.padEnd(36)} ${stats(floor.times).padEnd(28)} ${stats(floor.own)}`);
    for (const s of all) {
      const app = await httpTimes(server, (i) => `${base}${s.path}${s.query(i)}`, headers);
      const direct = await directTimes(() => s.direct(ctx, caller));
      const bare = bareTimes(c, s.bare);
      const line = `${s.label.padEnd(36)} ${stats(app.times).padEnd(28)} ${stats(app.own).padEnd(28)} ${stats(direct).padEnd(28)} ${stats(bare).padEnd(26)} ${app.total.toLocaleString()} (load ${os.loadavg()[0]!.toFixed(2)})`;
      console.log(line);
      lines.push(`${rows / 1e6}M ${line}`);
    }
  } finally {
    await stopServerProcesses(children);
    closeDb(db);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

/**
 * The phone-number scenarios on PostgreSQL: a fresh schema on DATABASE_URL holding the same numbers
 * and names as fillPhoneNumbers (set-based, generate_series), the app in this process over HTTP and as
 * a service call. Target p99 < 20 ms, as on SQLite.
 */
async function runSizePostgres(rows: number): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-list-pg-'));
  const db = (await createPostgresTestDb(PG_URL!)) as unknown as Db;
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  const lines: string[] = [];
  try {
    await seedSettings(db);
    let t = performance.now();
    const first = `ARRAY['Budi', 'Siti', 'Agus', 'Dewi', 'Rina', 'Joko', 'Sri', 'Andi', 'Putri', 'Eko', 'Wati', 'Hendra', 'Nur', 'Rudi', 'Fitri']`;
    const last = `ARRAY['Santoso', 'Wijaya', 'Saputra', 'Pratama', 'Lestari', 'Hidayat', 'Kusuma', 'Setiawan', 'Nugroho', 'Rahayu']`;
    const now = Date.now();
    for (let a = 0; a < rows; a += 250_000) {
      await pool.query(
        `INSERT INTO phone_numbers (number, name, count_success, count_fail, last_sent, line_type)
         SELECT '628' || lpad(((i * 2654435761) % 10000000000)::text, 10, '0'),
                (${first})[i % 15 + 1] || ' ' || (${last})[i * 7 % 10 + 1] || ' ' || (i % 1000), i % 3, (i % 5 = 0)::int,
                CASE WHEN i % 3 = 0 THEN NULL ELSE $3::bigint - (i % 172800) * 1000 END, 'mobile'
         FROM generate_series($1::bigint, $2::bigint - 1) AS s(i)`,
        [a, Math.min(rows, a + 250_000), now],
      );
    }
    console.log(`PostgreSQL: filled ${rows.toLocaleString()} phone numbers in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    // The search copies of the inserted rows, as the background indexing after an import makes them.
    t = performance.now();
    await indexAll(db);
    await pool.query('VACUUM ANALYZE phone_numbers');
    await pool.query('VACUUM ANALYZE phone_search');
    console.log(`PostgreSQL: indexed them for search in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const ctx = createContext(testConfig({ dataDir: dir }), db, () => undefined);
    const { server, close } = createServer(ctx);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const admin = await createUser(db, { firstname: 'Bench', lastname: 'Admin', email: 'bench@admin.test', password: 'password123', role: 'admin', referredBy: null });
      const token = await issueToken(ctx, admin, false);
      const headers = { Authorization: `Bearer ${token}` };
      const caller: AuthUser = { id: admin.id, role: 'admin', firstname: admin.firstname, lastname: admin.lastname, email: admin.email, token, expiresAt: Date.now() + 86_400_000 };
      console.log(`${'PostgreSQL scenario'.padEnd(36)} ${'over HTTP, in process (ms)'.padEnd(28)} ${'app in process (ms)'.padEnd(28)} total`);
      for (const s of phoneScenarios(rows)) {
        const times: number[] = [];
        let total = 0;
        for (let i = 0; i < REQUESTS + 5; i++) {
          t = performance.now();
          const res = await fetch(`${base}/api/admin/phonenumber/list-per-page${s.query(i)}`, { headers });
          const body = (await res.json()) as { meta?: { total: number } };
          if (!res.ok) throw new Error(`HTTP ${res.status} for ${s.label}`);
          total = body.meta?.total ?? 0;
          if (i >= 5) times.push(performance.now() - t);
        }
        const direct = await directTimes(() => s.direct(ctx, caller));
        const line = `${`PostgreSQL ${s.label}`.padEnd(36)} ${stats(times).padEnd(28)} ${stats(direct).padEnd(28)} ${total.toLocaleString()} (load ${os.loadavg()[0]!.toFixed(2)})`;
        console.log(line);
        lines.push(`${rows / 1e6}M ${line}`);
      }
    } finally {
      await close();
    }
  } finally {
    await closeDb(db);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale', 'server'], { stdio: 'inherit' });
const results: string[] = [];
for (const rows of SIZES) {
  console.log(`\n--- ${rows.toLocaleString()} phone numbers ---`);
  if (!process.argv.includes('--pg-only')) results.push(...(await runSize(rows)));
  if (PG_URL) results.push(...(await runSizePostgres(rows)));
}
console.log(`\nRESULT list (${REQUESTS} requests per app scenario, ${BARE} per bare query; shared machine; load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}):\n${results.join('\n')}`);
