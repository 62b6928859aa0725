/**
 * The blast engine against its floor. For 1, 10, 50 and 1,000 linked accounts, on SQLite (a database
 * file) and on PostgreSQL (a fresh schema on DATABASE_URL), it runs alternately, several times:
 *
 *  - the engine: the real app (simulator without latency, failures or intervals, one admin socket in
 *    another process), every account blasting until M more messages are logged;
 *  - the floor: a bare loop on the same database doing the same SQL per message with the same batching
 *    (one transaction per tick holding one message of every account: the member read, the log row, the
 *    account, member, number and template counters, the referral credit, and the next claim; the rule
 *    rows read before each tick), without sending anything;
 *  - on PostgreSQL also the set-based floor: the same rows written by the engine store's set-based tick
 *    statements (a fixed handful per tick), the fewest statements they take, nothing sent; and the same
 *    with the rows the simulator's delivery reports write (each send accepted with a message id, then
 *    moved to 'delivered' and, for READ_SHARE of them, 'read'), one more UPDATE per tick.
 *
 * CPU time of this process per message (process.cpuUsage over the measured messages) is the main
 * comparison, as the machine is shared; on PostgreSQL the CPU of the app's backends (their
 * /proc/<pid>/stat) is added beside it. Wall-clock messages/s are printed too, and at the end each
 * size's PostgreSQL engine against SQLite's, with the load average. Each figure is the median over the
 * runs. `npx tsx bench/floor.ts [--quick] [--sizes 1,50] [--db sqlite|pg]`.
 * `--child --db … --accounts N [--only engine|floor]` runs one size in this process (for profiling).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { testConfig } from '../server/src/config';
import { closeDb, createTestDb } from '../server/src/db/client';
import { isPostgres } from '../server/src/db/postgres';
import { createContext } from '../server/src/context';
import { createServer } from '../server/src/server';
import { issueToken } from '../server/src/auth/service';
import { whatsapps } from '../server/src/db/schema';
import { engineFor } from '../server/src/engine/engine';
import type { RuleSnapshot } from '../server/src/engine/snapshot';
import type { RawAccount, TickWork } from '../server/src/engine/store';
import { postgresFloor, postgresSetFloor, sqliteFloor, type FloorAccount, type FloorDb } from './lib/engine-floor';
import { BackendCpu } from './lib/cpu';
import { BENCH_SEED, insertBenchAdmin, seedEngineBench, spawnAdminSocket } from './lib/engine-seed';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const quick = flag('--quick');
const PG_URL = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

interface Run {
  messages: number;
  wallMs: number;
  cpuUs: number;
  /** CPU of the PostgreSQL backends serving this process over the same window (null on SQLite). */
  pgCpuUs: number | null;
  ticks: number;
  /** The engine only: the event loop's delay, p99 (ms), over the measured window. */
  loopP99Ms?: number;
}

interface SizeResult {
  db: string;
  accounts: number;
  engine: Run[];
  floor: Run[];
  /** PostgreSQL only: the set-based floor. */
  setFloor: Run[];
  /** PostgreSQL only: the set-based floor writing the delivery reports' rows too. */
  reportFloor?: Run[];
}

/** Set in the child on PostgreSQL: the backends of this process's connections. */
let backends: BackendCpu | null = null;

/**
 * Messages measured per run, after a warm-up: several ticks at every size. PostgreSQL commits each
 * tick to disk, so its runs are shorter.
 */
const measured = (accounts: number, pgRun: boolean) =>
  quick ? Math.max(600, 2 * accounts) : pgRun ? Math.max(1500, 3 * accounts) : Math.max(4000, 6 * accounts);
const warmup = (accounts: number, pgRun: boolean) => Math.max(accounts, Math.floor(measured(accounts, pgRun) / 5));
const pairs = () => Number(option('--pairs') ?? (quick ? 2 : 3));

/** Set by `--profile`: a CPU profile of each measured window (the last one is kept). */
const profiling = { start: async (_kind: string) => undefined as void, stop: async () => undefined as void };

/** The floor: ticks of one message per account until `warm` then `count` more messages are written. */
async function runFloor(floor: FloorDb, accounts: FloorAccount[], warm: number, count: number): Promise<Run> {
  const cutoffOf = (snap: RuleSnapshot, now: number) => now - snap.settings.recipient_cooldown_hours * 3_600_000;
  const first = await floor.rules();
  await floor.claimAll(accounts, cutoffOf(first, Date.now()));
  let written = 0;
  let ticks = 0;
  let template = 0;
  let at: { cpu: NodeJS.CpuUsage; t: number; written: number; ticks: number } | null = null;
  while (written < warm + count) {
    if (!at && written >= warm) await profiling.start('floor');
    if (!at && written >= warm) {
      await backends?.mark();
      at = { cpu: process.cpuUsage(), t: performance.now(), written, ticks };
    }
    const snap = await floor.rules();
    const now = Date.now();
    const tpl = snap.templates[template++ % snap.templates.length]!.id;
    const n = await floor.tick(now, cutoffOf(snap, now), snap, accounts, tpl);
    if (n === 0) throw new Error('the floor ran out of targets');
    written += n;
    ticks += 1;
    // A tick per turn of the event loop, as the engine's.
    await new Promise((r) => setImmediate(r));
  }
  const cpu = process.cpuUsage(at!.cpu);
  const wallMs = performance.now() - at!.t;
  const pgCpuUs = (await backends?.used()) ?? null;
  await profiling.stop();
  const run = { messages: written - at!.written, wallMs, cpuUs: cpu.user + cpu.system, pgCpuUs, ticks: ticks - at!.ticks };
  await floor.releaseAll(accounts);
  return run;
}

// ---------------------------------------------------------------------------------------------------
// One size in this process: the app, then engine and floor alternately.

async function child(): Promise<void> {
  const dbKind = option('--db') === 'pg' ? 'pg' : 'sqlite';
  const accounts = Number(option('--accounts') ?? 10);
  const only = option('--only');
  // `--profile file.cpuprofile`: the CPU profile of the engine's last measured window.
  const profileTo = option('--profile');
  const profiler = profileTo ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
  }
  let profiled = '';
  profiling.start = async (kind: string) => {
    profiled = kind;
    if (profiler) await profiler.post('Profiler.start');
  };
  profiling.stop = async () => {
    if (!profiler) return;
    const { profile } = await profiler.post('Profiler.stop');
    fs.writeFileSync(profileTo!.replace(/(\.cpuprofile)?$/, `.${profiled}.cpuprofile`), JSON.stringify(profile));
  };
  const runs = pairs();
  const count = measured(accounts, dbKind === 'pg');
  const warm = warmup(accounts, dbKind === 'pg');
  // Engine, floor and (PostgreSQL) set-based floor each use fresh numbers in every run.
  const targets = Math.ceil(runs * (dbKind === 'pg' ? 4 : 2) * (count + warm + 4 * accounts) * 1.1);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-floor-'));
  // On PostgreSQL this process's connections carry their own application_name, so the CPU of their
  // backends is told apart from other clients of a shared server.
  const appName = `blast-floor-${process.pid}`;
  if (dbKind === 'pg') {
    const url = new URL(PG_URL);
    url.searchParams.set('application_name', appName);
    process.env.DATABASE_URL = url.toString();
  } else delete process.env.DATABASE_URL;
  const db = await createTestDb(dbKind === 'pg' ? undefined : path.join(dataDir, 'blast.db'));
  await seedEngineBench(db, accounts, targets, 'floor-targets');
  const config = testConfig({ dataDir, sim: { seed: BENCH_SEED, latencyMs: 0, failureRate: 0 } });
  const ctx = createContext(config, db, () => undefined);
  const { server, close } = createServer(ctx);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const admin = await insertBenchAdmin(db);
  const token = await issueToken(ctx, admin, false);
  // `--no-admin`: no socket connected, so the live events are merged but never encoded or written.
  const watcher = flag('--no-admin')
    ? null
    : spawnAdminSocket(port, token);
  if (watcher) {
    await new Promise<void>((resolve) => watcher.stdout!.once('data', () => resolve()));
    watcher.stdout!.resume();
  }

  const engine = engineFor(ctx);
  await engine.ready;
  // Messages committed by the engine's ticks, counted as they commit (no polling of the log).
  let committed = 0;
  let waiter: { at: number; resolve: () => void } | null = null;
  const store = engine.store as { tick: (work: TickWork) => ReturnType<typeof engine.store.tick> };
  const tick = store.tick.bind(store);
  store.tick = async (work) => {
    const done = await tick(work);
    committed += work.records.length;
    if (waiter && committed >= waiter.at) {
      const w = waiter;
      waiter = null;
      w.resolve();
    }
    return done;
  };
  const reach = (n: number) => new Promise<void>((resolve) => (committed >= n ? resolve() : (waiter = { at: n, resolve })));
  const rows = (await db.select({ id: whatsapps.id, userId: whatsapps.userId }).from(whatsapps).orderBy(whatsapps.id)).map((r) => ({ id: r.id, userId: r.userId }));

  const runEngine = async (): Promise<Run> => {
    const raw = () => Promise.all(rows.map(async (r) => (await engine.store.account(r.id)) as RawAccount));
    const base = committed;
    await Promise.all((await raw()).map((a) => engine.start(a)));
    await reach(base + warm);
    await profiling.start('engine');
    // How long the node's event loop was held at a time while the engine ran (requests wait that long).
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    await backends?.mark();
    const from = { n: committed, cpu: process.cpuUsage(), t: performance.now(), ticks: engine.ticker.ticks };
    await reach(from.n + count);
    const cpu = process.cpuUsage(from.cpu);
    const wallMs = performance.now() - from.t;
    const pgCpuUs = (await backends?.used()) ?? null;
    loop.disable();
    await profiling.stop();
    const run = { messages: committed - from.n, wallMs, cpuUs: cpu.user + cpu.system, pgCpuUs, ticks: engine.ticker.ticks - from.ticks, loopP99Ms: loop.percentile(99) / 1e6 };
    await Promise.all((await raw()).map((a) => engine.stop(a)));
    return run;
  };

  const pool = db.$client as unknown as pg.Pool;
  const floor = isPostgres(db) ? await postgresFloor(pool) : sqliteFloor(db.$client);
  const setFloor = isPostgres(db) ? await postgresSetFloor(pool) : null;
  const reportFloor = isPostgres(db) ? await postgresSetFloor(pool, { reports: true }) : null;
  if (isPostgres(db)) backends = await BackendCpu.open(PG_URL, appName);
  const result: SizeResult = { db: dbKind === 'pg' ? 'PostgreSQL' : 'SQLite', accounts, engine: [], floor: [], setFloor: [], reportFloor: [] };
  const fresh = () => rows.map((r) => ({ ...r, target: null }));
  for (let i = 0; i < runs; i++) {
    if (only !== 'floor') result.engine.push(await runEngine());
    if (only !== 'engine') result.floor.push(await runFloor(floor, fresh(), warm, count));
    if (only !== 'engine' && setFloor) result.setFloor.push(await runFloor(setFloor, fresh(), warm, count));
    if (only !== 'engine' && reportFloor) result.reportFloor!.push(await runFloor(reportFloor, fresh(), warm, count));
    if (only) console.error(`run ${i + 1}: engine ${JSON.stringify(result.engine.at(-1))} floor ${JSON.stringify(result.floor.at(-1))} set-based floor ${JSON.stringify(result.setFloor.at(-1))} with reports ${JSON.stringify(result.reportFloor!.at(-1))}`);
  }
  await floor.close();
  await setFloor?.close();
  await reportFloor?.close();
  await backends?.close();
  await engine.shutdown();
  watcher?.kill();
  await close();
  await closeDb(db);
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(`RESULT ${JSON.stringify(result)}`);
}

// ---------------------------------------------------------------------------------------------------

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};
const rate = (r: Run) => (r.messages / r.wallMs) * 1000;
const perMessage = (r: Run) => r.cpuUs / r.messages;
/** The node's CPU plus its PostgreSQL backends', per message (the node's alone on SQLite). */
const totalPerMessage = (r: Run) => (r.cpuUs + (r.pgCpuUs ?? 0)) / r.messages;
const fmt = (runs: Run[], f: (r: Run) => number) => (runs.length ? String(Math.round(median(runs.map(f)))) : '–');
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

function parent(): void {
  const sizes = (option('--sizes') ?? '1,10,50,1000').split(',').map(Number);
  const dbs = option('--db') ? [option('--db')!] : ['sqlite', 'pg'];
  const results: SizeResult[] = [];
  const loadBefore = load();
  // Sizes outside, databases inside: each size's SQLite and PostgreSQL runs follow each other, so the
  // ratio between them is taken under the same load of the shared machine.
  for (const accounts of sizes) {
    for (const dbKind of dbs) {
      const res = spawnSync(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', '--db', dbKind, '--accounts', String(accounts), ...(quick ? ['--quick'] : []), ...(option('--pairs') ? ['--pairs', option('--pairs')!] : []), ...(flag('--no-admin') ? ['--no-admin'] : [])],
        { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', env: { ...process.env, DATABASE_URL: PG_URL } },
      );
      const line = res.stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (res.status !== 0 || !line) {
        console.error(`${dbKind}, ${accounts} accounts: failed (exit ${res.status})\n${res.stdout}`);
        process.exitCode = 1;
        continue;
      }
      const r = JSON.parse(line.slice(7)) as SizeResult;
      results.push(r);
      const show = (runs: Run[]) =>
        runs.map((x) => `${Math.round(rate(x))}/s ${Math.round(perMessage(x))}+${Math.round((x.pgCpuUs ?? 0) / x.messages)} µs${x.loopP99Ms !== undefined ? ` loop p99 ${x.loopP99Ms.toFixed(1)} ms` : ''}`).join(', ');
      console.log(
        `${r.db}, ${accounts} accounts: engine ${show(r.engine)}; floor ${show(r.floor)}${r.setFloor.length ? `; set-based floor ${show(r.setFloor)}` : ''}${r.reportFloor?.length ? `; set-based floor with reports ${show(r.reportFloor)}` : ''} (load ${load()})`,
      );
    }
  }
  console.log(`\nload average ${loadBefore} at the start, ${load()} at the end (${os.cpus().length} cores)`);
  console.log(
    '\n| accounts | db | engine msg/s | engine node CPU µs/msg | engine node + PG CPU µs/msg | msg/tick | per-message floor msg/s | set-based floor msg/s | set-based floor node + PG µs/msg | engine ÷ set-based floor (msg/s) | set-based floor with reports msg/s | its node + PG µs/msg | engine ÷ it (msg/s) | engine ÷ per-message floor (msg/s) |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    // Ratios pair each engine run with the floor runs right after it; the medians are over those pairs.
    const ratio = (floors: Run[]) => (floors.length ? median(r.engine.map((e, i) => rate(e) / rate(floors[i]!))).toFixed(2) : '–');
    console.log(
      `| ${r.accounts} | ${r.db} | ${fmt(r.engine, rate)} | ${fmt(r.engine, perMessage)} | ${fmt(r.engine, totalPerMessage)} | ${median(r.engine.map((e) => e.messages / Math.max(1, e.ticks))).toFixed(1)} | ${fmt(r.floor, rate)} | ${fmt(r.setFloor, rate)} | ${fmt(r.setFloor, totalPerMessage)} | ${ratio(r.setFloor)} | ${fmt(r.reportFloor ?? [], rate)} | ${fmt(r.reportFloor ?? [], totalPerMessage)} | ${ratio(r.reportFloor ?? [])} | ${ratio(r.floor)} |`,
    );
  }
  console.log('\n| accounts | PostgreSQL engine ÷ SQLite engine (msg/s) |');
  console.log('|---:|---:|');
  for (const accounts of sizes) {
    const lite = results.find((r) => r.accounts === accounts && r.db === 'SQLite');
    const post = results.find((r) => r.accounts === accounts && r.db === 'PostgreSQL');
    if (lite && post) console.log(`| ${accounts} | ${(median(post.engine.map(rate)) / median(lite.engine.map(rate))).toFixed(2)} |`);
  }
}

if (flag('--child')) {
  child()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
} else {
  parent();
}
