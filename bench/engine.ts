/**
 * Blast engine throughput: the real engine, database file, simulator and socket.io, with one
 * admin socket connected.
 *
 *  1. 1,000 linked accounts, 200,000 targets, zero latency and zero intervals: sustained
 *     messages/s (every log row, counter update, referral credit and event included), peak RSS.
 *  2. 5,000 accounts with 1–2 s intervals and 300 ms latency for 60 s: CPU share.
 *
 * In both, the admin socket (another process) counts every socket message it receives on any channel
 * (a batch once), the events they carry, and the time from a count event to its arrival (p50/p99).
 *
 * `npx tsx bench/engine.ts [--quick] [--phase 1|2]` (quick: smaller and shorter, for a smoke run).
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
import { issueToken } from '../server/src/auth/service';
import { settings } from '../server/src/db/schema';
import { eq } from 'drizzle-orm';
import { engineFor } from '../server/src/engine/engine';
import type { RawAccount } from '../server/src/engine/store';
import { rawAll, rawGet } from '../server/src/db/raw';
import { sql } from 'drizzle-orm';
import { BENCH_SEED, insertBenchAdmin, seedEngineBench, spawnAdminSocket } from './lib/engine-seed';

const quick = process.argv.includes('--quick');

/** What the admin socket reports (bench/lib/admin-socket.ts), since the end of the warm-up. */
interface AdminFigures {
  seconds: number;
  packets: number;
  messages: number;
  busiestSecond: number;
  counted: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

interface Phase {
  accounts: number;
  targets: number;
  latencyMs: number;
  intervals: [number, number];
  seconds: number;
  warmupSeconds: number;
}

async function runPhase(label: string, p: Phase) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-bench-'));
  const db = await openDb(path.join(dataDir, 'blast.db'));
  const t0 = Date.now();
  await seedEngineBench(db, p.accounts, p.targets, 'bench-targets');
  await db.update(settings).set({ intervalMin: p.intervals[0], intervalMax: p.intervals[1], sendFrom: '00:00', sendTo: '00:00' }).where(eq(settings.id, 1));
  const seededIn = Date.now() - t0;
  const config = testConfig({ dataDir, sim: { seed: BENCH_SEED, latencyMs: p.latencyMs, failureRate: 0.01 } });
  const ctx = createContext(config, db, () => undefined);
  const { server, close } = createServer(ctx);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;

  const admin = await insertBenchAdmin(db);
  // The admin's browser is another process: it parses what it receives and reports counts.
  const token = await issueToken(ctx, admin, false);
  const watcher = spawnAdminSocket(port, token, 'pipe');
  let figures: AdminFigures | null = null;
  let partial = '';
  watcher.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('{')) figures = JSON.parse(line) as AdminFigures;
  });
  await new Promise<void>((resolve) => watcher.stdout!.once('data', () => resolve()));

  const engine = engineFor(ctx);
  await engine.ready;
  const logs = async () => Number((await rawGet<{ n: number | null }>(db, sql`SELECT max(id) AS n FROM message_logs`))?.n ?? 0);
  const accounts = await rawAll<RawAccount>(db, sql`SELECT * FROM whatsapps ORDER BY id`);

  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const cpu0 = process.cpuUsage();
  const start = Date.now();
  await Promise.all(accounts.map((a) => engine.start(a)));
  let peakRss = process.memoryUsage().rss;
  let atWarmup = { t: start, n: 0, cpu: cpu0 };
  const samples: number[] = [];
  let last = 0;
  while (Date.now() - start < p.seconds * 1000 && engine.running > 0) {
    await new Promise((r) => setTimeout(r, 1000));
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const n = await logs();
    samples.push(n - last);
    last = n;
    if (samples.length === p.warmupSeconds) {
      atWarmup = { t: Date.now(), n, cpu: process.cpuUsage() };
      watcher.stdin!.write('mark\n');
      lag.reset();
    }
  }
  const end = { t: Date.now(), n: await logs(), cpu: process.cpuUsage(atWarmup.cpu) };
  // The admin's figures as of now (the watcher reports every 250 ms).
  figures = null;
  while (!figures) await new Promise((r) => setTimeout(r, 50));
  const seen = figures as AdminFigures;
  lag.disable();
  const ms = (ns: number) => (ns / 1e6).toFixed(0);
  const wall = (end.t - atWarmup.t) / 1000;
  const rate = (end.n - atWarmup.n) / wall;
  const cpuShare = (end.cpu.user + end.cpu.system) / 1000 / (end.t - atWarmup.t);
  await engine.shutdown();
  await new Promise((r) => setTimeout(r, 300));

  const checkRow = await rawGet<Record<string, unknown>>(
    db,
    sql`SELECT (SELECT sum(count_success + count_fail) FROM whatsapps) AS counted, (SELECT count(*) FROM message_logs) AS logged,
              (SELECT sum(income) FROM users) AS income, (SELECT coalesce(sum(income), 0) FROM message_logs) AS log_income,
              (SELECT count(*) FROM phone_numbers WHERE in_use = 1) AS in_use, (SELECT count(*) FROM referral_credits) AS credits`,
  );
  const figure = (key: string) => Number(checkRow?.[key] ?? 0);
  const check = { counted: figure('counted'), logged: figure('logged'), income: figure('income'), logIncome: figure('log_income'), inUse: figure('in_use'), credits: figure('credits') };
  watcher.kill();
  await close();
  await closeDb(db);
  fs.rmSync(dataDir, { recursive: true, force: true });

  const mb = (b: number) => `${Math.round(b / 1024 / 1024)} MB`;
  console.log(`\n${label}`);
  console.log(`  accounts ${p.accounts}, targets ${p.targets}, latency ${p.latencyMs} ms, intervals ${p.intervals.join('–')} s (seeded in ${seededIn} ms)`);
  console.log(`  messages: ${end.n} in ${((end.t - start) / 1000).toFixed(1)} s; per second: ${samples.join(' ')}`);
  console.log(`  sustained after ${p.warmupSeconds} s warm-up: ${Math.round(rate)} messages/s over ${wall.toFixed(1)} s`);
  const cpuPerMessage = ((end.cpu.user + end.cpu.system) / Math.max(1, end.n - atWarmup.n)).toFixed(0);
  console.log(`  CPU share of one core: ${(cpuShare * 100).toFixed(0)} % (${cpuPerMessage} µs of CPU per message)   peak RSS: ${mb(peakRss)}`);
  console.log(`  event-loop delay: p50 ${ms(lag.percentile(50))} ms, p99 ${ms(lag.percentile(99))} ms, max ${ms(lag.max)} ms`);
  console.log(
    `  one admin socket: ${(seen.packets / seen.seconds).toFixed(1)} socket messages/s (busiest second ${seen.busiestSecond}) carrying ${Math.round(seen.messages / seen.seconds)} events/s (engine ticks ${engine.ticker.ticks})`,
  );
  console.log(`  count event to admin socket: p50 ${seen.p50 ?? '-'} ms, p99 ${seen.p99 ?? '-'} ms, max ${seen.max ?? '-'} ms over ${seen.counted} count events`);
  console.log(`  invariants: counted ${check.counted} = logged ${check.logged}; member income ${check.income} = log income ${check.logIncome}; in use ${check.inUse}; referral credits ${check.credits}`);
  return { rate, cpuShare, peakRss, ok: check.counted === check.logged && check.income === check.logIncome && check.inUse === 0 };
}

const only = process.argv.includes('--phase') ? Number(process.argv[process.argv.indexOf('--phase') + 1]) : null;
const skipped = { rate: 0, cpuShare: 0, peakRss: 0, ok: true };
const one = only === 2 ? skipped : await runPhase('1. throughput', {
  accounts: 1000,
  targets: quick ? 50_000 : 200_000,
  latencyMs: 0,
  intervals: [0, 0],
  seconds: quick ? 10 : 40,
  warmupSeconds: 3,
});
const two = only === 1 ? skipped : await runPhase('2. realistic intervals', {
  accounts: quick ? 1000 : 5000,
  targets: 200_000,
  latencyMs: 300,
  intervals: [1, 2],
  seconds: quick ? 15 : 60,
  warmupSeconds: 5,
});
console.log(`\nresult: ${Math.round(one.rate)} messages/s (target ≥ 3000) ${one.rate >= 3000 ? 'PASS' : 'BELOW TARGET'}; invariants ${one.ok && two.ok ? 'hold' : 'BROKEN'}`);
process.exit(one.ok && two.ok ? 0 : 1);
