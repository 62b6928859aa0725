/**
 * The blast engine against its floor. For 1, 10, 50 and 1,000 linked accounts, on SQLite (a database
 * file) and on PostgreSQL (a fresh schema on DATABASE_URL), it runs alternately, several times:
 *
 *  - the engine: the real app (simulator without latency, failures or intervals, one admin socket in
 *    another process), every account blasting until M more messages are logged;
 *  - the floor: a bare loop on the same database doing the same SQL per message with the same batching
 *    (one transaction per tick holding one message of every account: the member read, the log row, the
 *    account, member, number and template counters, the referral credit, and the next claim; the rule
 *    rows read before each tick), without sending anything.
 *
 * CPU time of this process per message (process.cpuUsage over the measured messages) is the main
 * comparison, as the machine is shared; wall-clock messages/s are printed too. Each figure is the median
 * over the runs. `npx tsx bench/floor.ts [--quick] [--sizes 1,50] [--db sqlite|pg]`.
 * `--child --db … --accounts N [--only engine|floor]` runs one size in this process (for profiling).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
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
import { feeOn, type RuleSnapshot } from '../server/src/engine/snapshot';
import { referralAmount } from '../server/src/money/referral';
import type { RawAccount, RawMember, TickWork } from '../server/src/engine/store';
import { SQLITE_ENGINE_SQL } from '../server/src/db/sqlite/engine';
import { PG_ENGINE_SQL } from '../server/src/db/pg/engine';
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
  ticks: number;
}

interface SizeResult {
  db: string;
  accounts: number;
  engine: Run[];
  floor: Run[];
}

/**
 * Messages measured per run, after a warm-up: several ticks at every size. PostgreSQL commits each
 * tick to disk, so its runs are shorter.
 */
const measured = (accounts: number, pgRun: boolean) =>
  quick ? Math.max(600, 2 * accounts) : pgRun ? Math.max(1500, 3 * accounts) : Math.max(4000, 6 * accounts);
const warmup = (accounts: number, pgRun: boolean) => Math.max(accounts, Math.floor(measured(accounts, pgRun) / 5));
const pairs = () => Number(option('--pairs') ?? (quick ? 2 : 3));

// ---------------------------------------------------------------------------------------------------
// The floor: the engine stores' own statements (SQLITE_ENGINE_SQL, PG_ENGINE_SQL), run bare.

/** The SQLite statements the floor runs per tick. */
const FLOOR_STATEMENTS = ['settings', 'levels', 'templates', 'claim', 'release', 'member', 'insertLog', 'addToAccount', 'addToMember', 'markSent', 'useTemplate', 'userExists', 'insertCredit'] as const;

interface Claimed {
  id: number;
  number: string;
  name: string;
}

interface FloorAccount {
  id: number;
  userId: number;
  target: Claimed | null;
}

/** One tick's work for the floor: the rule rows, then one transaction recording and claiming for every account. */
interface FloorDb {
  rules(): Promise<RuleSnapshot>;
  tick(now: number, cutoff: number, snap: RuleSnapshot, accounts: FloorAccount[], template: number): Promise<number>;
  claimAll(accounts: FloorAccount[], cutoff: number): Promise<void>;
  releaseAll(accounts: FloorAccount[]): Promise<void>;
  close(): Promise<void>;
}

function sqliteFloor(sqlite: Database.Database): FloorDb {
  const prep = (source: string) => sqlite.prepare(source);
  const st = Object.fromEntries(FLOOR_STATEMENTS.map((name) => [name, prep(SQLITE_ENGINE_SQL[name])])) as Record<(typeof FLOOR_STATEMENTS)[number], Database.Statement>;
  const txn = sqlite.transaction((fn: () => void) => fn());
  const claim = (accountId: number, cutoff: number) => (st.claim.get({ accountId, cutoff }) as Claimed | undefined) ?? null;
  return {
    rules: async () => ({
      settings: st.settings.get() as RuleSnapshot['settings'],
      levels: st.levels.all() as RuleSnapshot['levels'],
      templates: st.templates.all() as RuleSnapshot['templates'],
    }),
    async tick(now, cutoff, snap, accounts, template) {
      let n = 0;
      txn.immediate(() => {
        for (const a of accounts) {
          if (!a.target) continue;
          const member = st.member.get(a.userId) as RawMember | undefined;
          const income = member ? feeOn(snap, member) : 0;
          const log = st.insertLog.run({
            whatsappId: a.id,
            userId: a.userId,
            phoneNumberId: a.target.id,
            number: a.target.number,
            templateId: template,
            success: 1,
            errorCode: null,
            income,
            waMessageId: null,
            deliveryStatus: null,
            statusAt: null,
            now,
          });
          st.addToAccount.get({ id: a.id, success: 1, fail: 0, income, now });
          st.addToMember.run({ id: a.userId, success: 1, fail: 0, income });
          st.markSent.get({ id: a.target.id, success: 1, fail: 0, now });
          st.useTemplate.run(template);
          const referrer = member?.referred_by ?? null;
          const amount = referralAmount(income, snap.settings.referral_percent);
          if (income > 0 && referrer !== null && referrer !== a.userId && amount > 0 && st.userExists.get(referrer)) {
            st.insertCredit.run({ referrerId: referrer, referredId: a.userId, messageLogId: Number(log.lastInsertRowid), amount, now });
          }
          n += 1;
        }
        for (const a of accounts) if (a.target) a.target = claim(a.id, cutoff);
      });
      return n;
    },
    async claimAll(accounts, cutoff) {
      txn.immediate(() => {
        for (const a of accounts) a.target = claim(a.id, cutoff);
      });
    },
    async releaseAll(accounts) {
      txn.immediate(() => {
        for (const a of accounts) if (a.target) st.release.get(a.target.id);
      });
    },
    close: async () => undefined,
  };
}


async function postgresFloor(pool: pg.Pool): Promise<FloorDb> {
  const c = await pool.connect();
  const q = async <R extends pg.QueryResultRow>(runner: Pick<pg.PoolClient, 'query'>, name: keyof typeof PG_ENGINE_SQL, values: unknown[] = []): Promise<R[]> =>
    (await runner.query<R>({ name: `floor_${name}`, text: PG_ENGINE_SQL[name], values })).rows;
  const claim = async (accountId: number, cutoff: number): Promise<Claimed | null> =>
    (await q<Claimed>(c, 'claimFresh', [accountId]))[0] ?? (await q<Claimed>(c, 'claimCooled', [accountId, cutoff]))[0] ?? null;
  const inTransaction = async (fn: () => Promise<void>) => {
    await c.query('BEGIN');
    try {
      await fn();
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK');
      throw err;
    }
  };
  return {
    async rules() {
      const [s, l, t] = await Promise.all([q(pool, 'settings'), q(pool, 'levels'), q(pool, 'templates')]);
      return { settings: s[0] as RuleSnapshot['settings'], levels: l as RuleSnapshot['levels'], templates: t as RuleSnapshot['templates'] };
    },
    async tick(now, cutoff, snap, accounts, template) {
      let n = 0;
      await inTransaction(async () => {
        const sending = accounts.filter((a) => a.target).sort((x, y) => x.userId - y.userId || x.id - y.id);
        const members = [...new Set(sending.map((a) => a.userId))].sort((x, y) => x - y);
        if (members.length) await q(c, 'lockMembers', [members]);
        for (const a of sending) {
          const target = a.target!;
          const [member] = await q<RawMember>(c, 'member', [a.userId]);
          const income = member ? feeOn(snap, member) : 0;
          const [log] = await q<{ id: number }>(c, 'insertLog', [a.id, a.userId, target.id, target.number, template, 1, null, income, now, null, null, null]);
          await q(c, 'addToAccount', [a.id, 1, 0, income, now]);
          await q(c, 'addToMember', [a.userId, 1, 0, income]);
          await q(c, 'markSent', [target.id, 1, 0, now]);
          await q(c, 'useTemplate', [template]);
          const referrer = member?.referred_by ?? null;
          const amount = referralAmount(income, snap.settings.referral_percent);
          if (income > 0 && referrer !== null && referrer !== a.userId && amount > 0 && (await q(c, 'userExists', [referrer])).length > 0) {
            await q(c, 'insertCredit', [referrer, a.userId, log!.id, amount, now]);
          }
          n += 1;
        }
        for (const a of accounts) if (a.target) a.target = await claim(a.id, cutoff);
      });
      return n;
    },
    async claimAll(accounts, cutoff) {
      await inTransaction(async () => {
        for (const a of accounts) a.target = await claim(a.id, cutoff);
      });
    },
    async releaseAll(accounts) {
      await inTransaction(async () => {
        for (const a of accounts) if (a.target) await q(c, 'release', [a.target.id]);
      });
    },
    close: async () => c.release(),
  };
}

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
    if (!at && written >= warm) at = { cpu: process.cpuUsage(), t: performance.now(), written, ticks };
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
  await profiling.stop();
  const run = { messages: written - at!.written, wallMs: performance.now() - at!.t, cpuUs: cpu.user + cpu.system, ticks: ticks - at!.ticks };
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
  const targets = Math.ceil(runs * 2 * (count + warm + 4 * accounts) * 1.1);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-floor-'));
  if (dbKind === 'pg') process.env.DATABASE_URL = PG_URL;
  else delete process.env.DATABASE_URL;
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
    const from = { n: committed, cpu: process.cpuUsage(), t: performance.now(), ticks: engine.ticker.ticks };
    await reach(from.n + count);
    const cpu = process.cpuUsage(from.cpu);
    await profiling.stop();
    const run = { messages: committed - from.n, wallMs: performance.now() - from.t, cpuUs: cpu.user + cpu.system, ticks: engine.ticker.ticks - from.ticks };
    await Promise.all((await raw()).map((a) => engine.stop(a)));
    return run;
  };

  const floor = isPostgres(db) ? await postgresFloor(db.$client as unknown as pg.Pool) : sqliteFloor(db.$client);
  const result: SizeResult = { db: dbKind === 'pg' ? 'PostgreSQL' : 'SQLite', accounts, engine: [], floor: [] };
  for (let i = 0; i < runs; i++) {
    if (only !== 'floor') result.engine.push(await runEngine());
    if (only !== 'engine') result.floor.push(await runFloor(floor, rows.map((r) => ({ ...r, target: null })), warm, count));
    if (only) console.error(`run ${i + 1}: engine ${JSON.stringify(result.engine.at(-1))} floor ${JSON.stringify(result.floor.at(-1))}`);
  }
  await floor.close();
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

function parent(): void {
  const sizes = (option('--sizes') ?? '1,10,50,1000').split(',').map(Number);
  const dbs = option('--db') ? [option('--db')!] : ['sqlite', 'pg'];
  const results: SizeResult[] = [];
  for (const dbKind of dbs) {
    for (const accounts of sizes) {
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
      console.log(
        `${r.db}, ${accounts} accounts: engine ${r.engine.map((x) => `${Math.round(rate(x))}/s ${Math.round(perMessage(x))} µs`).join(', ')}; floor ${r.floor.map((x) => `${Math.round(rate(x))}/s ${Math.round(perMessage(x))} µs`).join(', ')}`,
      );
    }
  }
  console.log('\n| accounts | db | engine msg/s | engine CPU µs/msg | engine msg/tick | floor msg/s | floor CPU µs/msg | ratio (CPU) | ratio (msg/s) |');
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    // Ratios pair each engine run with the floor run right after it; the medians are over those pairs.
    const cpuRatio = median(r.engine.map((e, i) => perMessage(r.floor[i]!) / perMessage(e)));
    const rateRatio = median(r.engine.map((e, i) => rate(e) / rate(r.floor[i]!)));
    console.log(
      `| ${r.accounts} | ${r.db} | ${Math.round(median(r.engine.map(rate)))} | ${Math.round(median(r.engine.map(perMessage)))} | ${median(r.engine.map((e) => e.messages / Math.max(1, e.ticks))).toFixed(1)} | ${Math.round(median(r.floor.map(rate)))} | ${Math.round(median(r.floor.map(perMessage)))} | ${cpuRatio.toFixed(2)} | ${rateRatio.toFixed(2)} |`,
    );
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
