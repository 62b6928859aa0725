/**
 * The engine on each store, side by side in one run: SQLite (one node), PostgreSQL with one node, and
 * PostgreSQL with two nodes. Each node is the compiled server (`dist/server/main.js`) in its own
 * process with the simulator (no latency, no failures, no intervals); the accounts' blasts are started
 * over HTTP, split between the nodes. For each setup it prints:
 *   - messages/s: message-log rows written per second over the measured window;
 *   - the phone-number list call (`GET /api/admin/phonenumber/list-per-page?page=…`, random pages)
 *     p50/p99 while the engine runs;
 *   - a bare insert loop on the same database (one INSERT of a message-log row per statement, one
 *     connection per node, nothing else running) and the engine's ratio to it;
 *   - the CPU per message of each process over the window: every node (/proc/<pid>/stat) and, on
 *     PostgreSQL, the bench database's backends together; and the deadlocks PostgreSQL detected in it.
 *
 * The nodes use REDIS_PREFIX (default `bench-<pid>:`), so they share no key with another install on
 * the same Redis. `npx tsx bench/cluster.ts [--quick] [--accounts N] [--seconds S] [--pg-only]
 * [--nodes 1,2]` (needs DATABASE_URL for the PostgreSQL rows; REDIS_URL for two nodes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import { closeDb, connectDb, openDb, type Db } from '../server/src/db/client';
import { levels, messageTemplates, phoneNumbers, settings, whatsapps } from '../server/src/db/schema';
import { createUser } from '../server/src/auth/service';
import { simNumbers } from '../server/src/gateway/simulator/network';
import { freePort } from '../tests/net';
import { BackendCpu, procCpuUs } from './lib/cpu';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const quick = argv.includes('--quick');
const ACCOUNTS = Number(option('--accounts') ?? (quick ? 8 : 20));
const WARMUP_S = quick ? 2 : 3;
const MEASURE_S = Number(option('--seconds') ?? (quick ? 5 : 15));
// Enough never-sent numbers for the whole run at SQLite's rate (about 7,000 messages/s): a run that
// used them all up would time idle seconds. `measure` checks that some are left at the end.
const TARGETS = Math.max(quick ? 100_000 : 300_000, Math.ceil(((WARMUP_S + MEASURE_S) * 12_000) / 100_000) * 100_000);
/** Four accounts per member, at most 25 members (each is a password hash to seed and a login to start with). */
const MEMBERS = Math.min(25, Math.ceil(ACCOUNTS / 4));
const NODE_COUNTS = (option('--nodes') ?? '1,2').split(',').map(Number);
const REDIS_PREFIX = process.env.REDIS_PREFIX ?? `bench-${process.pid}:`;
const JWT_SECRET = crypto.randomBytes(32).toString('hex');
const ADMIN = { email: 'bench-admin@bench.local', password: 'bench-password-1' };
const PG_URL = process.env.DATABASE_URL ?? '';
const REDIS_URL = process.env.REDIS_URL ?? '';

async function seed(db: Db): Promise<void> {
  await db.update(settings).set({ intervalMin: 0, intervalMax: 0, price: 25, referralPercent: 10, recipientCooldownHours: 24, sendFrom: '00:00', sendTo: '00:00' }).where(eq(settings.id, 1));
  await db.insert(levels).values([{ name: 'Bronze', blastFee: 50, requirementBlast: 0 }]);
  await db.insert(messageTemplates).values({ text: '<p>Halo {name}</p>', textWa: 'Halo {name}, promo untuk {phoneNumber}' });
  await createUser(db, { firstname: 'Bench', lastname: 'Admin', email: ADMIN.email, password: ADMIN.password, role: 'admin', referredBy: null });
  const members: number[] = [];
  for (let m = 0; m < MEMBERS; m++) {
    const u = await createUser(db, { firstname: `Member${m}`, lastname: 'Bench', email: `m${m}@bench.local`, password: ADMIN.password, role: 'member', referredBy: m > 0 ? members[0]! : null });
    members.push(u.id);
  }
  const accounts = Array.from({ length: ACCOUNTS }, (_, a) => {
    const phone = `62899${String(a).padStart(8, '0')}`;
    const id = `id-cluster-bench-${a}`;
    return { deviceId: id, clientid: id, pushname: `Akun ${a}`, phonenumber: phone, server: 'c.us', serialized: `${phone}@c.us`, userId: members[a % members.length]!, state: 'connected' };
  });
  for (let i = 0; i < accounts.length; i += 500) await db.insert(whatsapps).values(accounts.slice(i, i + 500));
  const targets = simNumbers('bench', TARGETS, { salt: 'cluster-targets' }).map((n) => ({ number: n.number, name: n.name ?? '', lineType: 'mobile' }));
  for (let i = 0; i < targets.length; i += 1000) await db.insert(phoneNumbers).values(targets.slice(i, i + 1000));
}

interface Node {
  base: string;
  proc: ChildProcess;
  exited: Promise<unknown>;
}

async function startNode(name: string, env: Record<string, string>): Promise<Node> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      NODE_ID: name,
      PORT: String(port),
      JWT_SECRET,
      LOG_LEVEL: 'warn',
      SIM_LATENCY_MS: '0',
      SIM_FAILURE_RATE: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => proc.on('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  const end = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // starting
    }
    if (proc.exitCode !== null || Date.now() > end) throw new Error(`${name} did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, proc, exited };
}

async function stopNodes(nodes: Node[]): Promise<void> {
  for (const n of nodes) n.proc.kill('SIGTERM');
  await Promise.all(nodes.map((n) => n.exited));
}

async function token(node: Node, email = ADMIN.email): Promise<string> {
  const res = await fetch(`${node.base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: ADMIN.password }) });
  if (!res.ok) throw new Error(`login: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Row {
  setup: string;
  msgs: number;
  p50: number;
  p99: number;
  bare: number;
  /** CPU µs per message of each node, in order. */
  nodeCpu: number[];
  /** CPU µs per message of the database's backends (PostgreSQL). */
  pgCpu: number | null;
  /** Deadlocks PostgreSQL detected in the bench database during the window (PostgreSQL). */
  deadlocks: number | null;
  /** Transactions committed in the bench database during the window, an upper bound of the ticks. */
  commits: number | null;
}

/** What PostgreSQL counts of the bench database: deadlocks and commits so far. */
interface DbCounters {
  read(): Promise<{ deadlocks: number; commits: number }>;
}

/** Runs one setup: nodes started, blasts started across them, then the measured window. */
async function measure(setup: string, nodes: Node[], countLogs: () => Promise<number>, pgSide?: { cpu: BackendCpu; counters: DbCounters }): Promise<Omit<Row, 'bare'>> {
  const tokens = await Promise.all(nodes.map((n) => token(n)));
  const owners = new Map<string, string>();
  const starts: Array<{ a: number; i: number; owner: string }> = [];
  for (let a = 1; a <= ACCOUNTS; a++) {
    const i = a % nodes.length;
    // A blast is started by the account's owner (account a belongs to member (a - 1) mod members).
    const email = `m${(a - 1) % MEMBERS}@bench.local`;
    const key = `${i} ${email}`;
    if (!owners.has(key)) owners.set(key, await token(nodes[i]!, email));
    starts.push({ a, i, owner: owners.get(key)! });
  }
  // Started 16 at a time: one by one, a fast store sent every target before the last account started.
  for (let k = 0; k < starts.length; k += 16) {
    await Promise.all(
      starts.slice(k, k + 16).map(async ({ a, i, owner }) => {
        const res = await fetch(`${nodes[i]!.base}/api/admin/whatsapp/start-blasting`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${owner}` },
          body: JSON.stringify({ whatsappClientId: a, loop: true }),
        });
        if (!res.ok) throw new Error(`${setup}: start ${a}: ${res.status} ${await res.text()}`);
      }),
    );
  }
  await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
  await pgSide?.cpu.mark();
  const pgFrom = await pgSide?.counters.read();
  const cpuFrom = nodes.map((n) => procCpuUs(n.proc.pid!) ?? 0);
  const from = await countLogs();
  const started = Date.now();
  const lastPage = Math.ceil(TARGETS / 10);
  const times: number[] = [];
  while (Date.now() - started < MEASURE_S * 1000) {
    const page = 1 + Math.floor(Math.random() * lastPage);
    const t0 = performance.now();
    const res = await fetch(`${nodes[0]!.base}/api/admin/phonenumber/list-per-page?page=${page}`, { headers: { Authorization: `Bearer ${tokens[0]}` } });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (!res.ok) throw new Error(`${setup}: list page ${page}: ${res.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (Date.now() - started) / 1000;
  const to = await countLogs();
  const cpuTo = nodes.map((n) => procCpuUs(n.proc.pid!) ?? 0);
  const pgUsed = (await pgSide?.cpu.used()) ?? null;
  const pgTo = await pgSide?.counters.read();
  const sent = Math.max(1, to - from);
  // One message per number (the recipient cooldown is 24 h): all numbers logged means the blasts ran
  // dry inside the window, and the rate would count idle time.
  if (to >= TARGETS) throw new Error(`${setup}: every target was sent within the window; raise TARGETS`);

  times.sort((x, y) => x - y);
  return {
    setup,
    msgs: (to - from) / seconds,
    p50: pct(times, 50),
    p99: pct(times, 99),
    nodeCpu: cpuTo.map((c, i) => (c - cpuFrom[i]!) / sent),
    pgCpu: pgUsed === null ? null : pgUsed / sent,
    deadlocks: pgFrom && pgTo ? pgTo.deadlocks - pgFrom.deadlocks : null,
    commits: pgFrom && pgTo ? pgTo.commits - pgFrom.commits : null,
  };
}

function bareSqlite(file: string): number {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const insert = db.prepare('INSERT INTO message_logs (whatsapp_id, user_id, phone_number_id, number, template_id, success, error_code, income, created_at) VALUES (1, 2, 1, ?, 1, 1, NULL, 50, ?)');
  const started = Date.now();
  let n = 0;
  while (Date.now() - started < MEASURE_S * 1000) {
    insert.run(`6281${n}`, Date.now());
    n += 1;
  }
  db.close();
  return n / ((Date.now() - started) / 1000);
}

async function barePostgres(url: string, clients: number): Promise<number> {
  const conns = await Promise.all(
    Array.from({ length: clients }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  const started = Date.now();
  let n = 0;
  await Promise.all(
    conns.map(async (c) => {
      while (Date.now() - started < MEASURE_S * 1000) {
        await c.query({
          name: 'bare_insert',
          text: 'INSERT INTO message_logs (whatsapp_id, user_id, phone_number_id, number, template_id, success, error_code, income, created_at) VALUES (1, 2, 1, $1, 1, 1, NULL, 50, $2)',
          values: [`6281${n}`, Date.now()],
        });
        n += 1;
      }
    }),
  );
  const rate = n / ((Date.now() - started) / 1000);
  await Promise.all(conns.map((c) => c.end()));
  return rate;
}

async function sqliteRow(): Promise<Row> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-cluster-bench-'));
  const file = path.join(dir, 'blast.db');
  const db = openDb(file);
  await seed(db);
  await closeDb(db);
  const node = await startNode('sqlite', { DATA_DIR: dir, DEMO: 'false', REDIS_PREFIX });
  const reader = new Database(file, { readonly: true });
  let row: Omit<Row, 'bare'>;
  try {
    row = await measure(`SQLite, 1 node, ${ACCOUNTS} accounts`, [node], async () => (reader.prepare('SELECT max(id) AS m FROM message_logs').get() as { m: number | null }).m ?? 0);
  } finally {
    reader.close();
    await stopNodes([node]);
  }
  const bare = bareSqlite(file);
  fs.rmSync(dir, { recursive: true, force: true });
  return { ...row, bare };
}

async function postgresRow(nodesWanted: number): Promise<Row> {
  const name = `blast_bench_${process.pid}_${nodesWanted}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  const db = await connectDb(dbUrl);
  await seed(db);
  await closeDb(db);
  const nodes: Node[] = [];
  const dataDirs: string[] = [];
  for (let i = 0; i < nodesWanted; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-cluster-bench-'));
    dataDirs.push(dataDir);
    nodes.push(await startNode(`bench${i}`, { DATA_DIR: dataDir, DATABASE_URL: dbUrl, REDIS_PREFIX, ...(nodesWanted > 1 && REDIS_URL ? { REDIS_URL } : {}) }));
  }
  const reader = new pg.Client({ connectionString: dbUrl });
  await reader.connect();
  const cpu = await BackendCpu.open(dbUrl);
  const counters: DbCounters = {
    read: async () => {
      const r = (await reader.query<{ deadlocks: string; commits: string }>('SELECT deadlocks, xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()')).rows[0]!;
      return { deadlocks: Number(r.deadlocks), commits: Number(r.commits) };
    },
  };
  let row: Omit<Row, 'bare'>;
  try {
    row = await measure(
      `PostgreSQL, ${nodesWanted} node${nodesWanted > 1 ? 's' : ''}, ${ACCOUNTS} accounts`,
      nodes,
      async () => Number((await reader.query<{ m: string | null }>('SELECT max(id) AS m FROM message_logs')).rows[0]!.m ?? 0),
      { cpu, counters },
    );
  } finally {
    await cpu.close();
    await reader.end();
    await stopNodes(nodes);
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
  const bare = await barePostgres(dbUrl, nodesWanted);
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  return { ...row, bare };
}

async function main(): Promise<void> {
  if (!fs.existsSync('dist/server/main.js')) throw new Error('Build first: node scripts/build.mjs');
  const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`${ACCOUNTS} accounts, ${TARGETS.toLocaleString('en')} targets, simulator without latency or failures, intervals 0; ${MEASURE_S} s measured after ${WARMUP_S} s; Redis prefix ${REDIS_PREFIX}; load ${load()}, ${os.cpus().length} cores`);
  const rows: Row[] = argv.includes('--pg-only') ? [] : [await sqliteRow()];
  if (/^postgres(ql)?:\/\//.test(PG_URL)) {
    for (const n of NODE_COUNTS) {
      if (n > 1 && !REDIS_URL) {
        console.log('REDIS_URL not set: no row of several nodes');
        continue;
      }
      rows.push(await postgresRow(n));
    }
  } else {
    console.log('DATABASE_URL not set: no PostgreSQL rows');
  }
  console.log(`\nload at the end ${load()}`);
  console.log('\n| setup | engine msg/s | CPU µs/msg of each node | CPU µs/msg of the PG backends | list p50 ms | list p99 ms | deadlocks (commits) | bare insert loop rows/s | engine ÷ bare |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const pgCpu = r.pgCpu === null ? '–' : String(Math.round(r.pgCpu));
    const dead = r.deadlocks === null ? '–' : `${r.deadlocks} (${r.commits!.toLocaleString('en')})`;
    console.log(
      `| ${r.setup} | ${Math.round(r.msgs).toLocaleString('en')} | ${r.nodeCpu.map((c) => Math.round(c)).join(' + ')} | ${pgCpu} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${dead} | ${Math.round(r.bare).toLocaleString('en')} | ${(r.msgs / r.bare).toFixed(2)} |`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
