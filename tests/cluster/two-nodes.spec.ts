import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, test } from '@playwright/test';
import { freePort } from '../net';
import { unpackMessages } from '../../common/live';

/**
 * Two server processes on one PostgreSQL database and one Redis, both with the simulator. Accounts
 * blast from both nodes; one node is killed with SIGKILL mid-blast; the survivor takes its accounts
 * over. Afterwards the books are checked against the message log. A browser connected only to the
 * survivor must have seen live events of the accounts running on the other node before the kill.
 */

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const REDIS_URL = process.env.REDIS_URL ?? '';
const SIM_TOKEN = 'cluster-simulator-token-0123456789';
const JWT_SECRET = crypto.randomBytes(32).toString('hex');
const EXTRA_NUMBERS = 1200;

interface Node {
  name: string;
  port: number;
  base: string;
  proc: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function dbUrl(name: string): string {
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function startNode(name: string, database: string, demo: boolean): Promise<Node> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `blast-${name}-`));
  const proc = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      NODE_ID: name,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl(database),
      REDIS_URL,
      // Its own keys on a Redis other installs (or runs) may share.
      ...(process.env.REDIS_PREFIX ? { REDIS_PREFIX: process.env.REDIS_PREFIX } : {}),
      JWT_SECRET,
      DEMO: demo ? 'true' : 'false',
      SIM_TOKEN,
      SIM_LATENCY_MS: '30',
      SIM_FAILURE_RATE: '0.05',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  proc.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
  proc.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${name} exited: ${output.join('')}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${name} did not start: ${output.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { name, port, base, proc, output, exited };
}

async function login(node: Node, email: string): Promise<{ token: string; user: { id: number } }> {
  const res = await fetch(`${node.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo12345' }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { token: string; user: { id: number } };
}

async function startBlast(node: Node, token: string, id: number): Promise<void> {
  const res = await fetch(`${node.base}/api/admin/whatsapp/start-blasting`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ whatsappClientId: id, loop: true }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function until<T>(what: string, fn: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let last = await fn();
  while (!ok(last)) {
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(last)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
    last = await fn();
  }
  return last;
}

test.describe.configure({ mode: 'serial' });

test('two nodes share one blast; a killed node’s accounts are taken over and the books match the log', async ({ page }) => {
  // Two nodes need a shared PostgreSQL and Redis; scripts/test-cluster.mjs says loudly when they are
  // missing (and fails on CI), so this skip only guards a direct `playwright test -c …` run without them.
  test.skip(!/^postgres(ql)?:\/\//.test(DATABASE_URL) || !/^rediss?:\/\//.test(REDIS_URL), 'needs DATABASE_URL and REDIS_URL');
  test.setTimeout(240_000);
  const database = `blast_nodes_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  const db = new pg.Client({ connectionString: dbUrl(database) });
  const nodes: Node[] = [];
  try {
    // Node A migrates and seeds the demo; node B starts on the same database afterwards.
    const a = await startNode('nodeA', database, true);
    nodes.push(a);
    const b = await startNode('nodeB', database, false);
    nodes.push(b);
    await db.connect();

    // Every number is new to the list and none may be messaged twice within 24 hours.
    // One attempt per number: a failed send is not retried later (engine/retry.ts), so each number is logged once.
    await db.query('UPDATE settings SET interval_min = 0, interval_max = 0, recipient_cooldown_hours = 24, max_attempts = 1 WHERE id = 1');
    await db.query('UPDATE users SET blast_interval_min = NULL, blast_interval_max = NULL');
    await db.query(
      `INSERT INTO phone_numbers (number, name, status, in_use, count_success, count_fail, line_type, created_at)
       SELECT '62813' || lpad(g::text, 8, '0'), 'Kontak ' || g, 'active', 0, 0, 0, 'mobile', $1 FROM generate_series(1, $2) g`,
      [Date.now(), EXTRA_NUMBERS],
    );
    const accounts = (
      await db.query<{ id: number; user_id: number }>(
        "SELECT id, user_id FROM whatsapps WHERE state = 'connected' AND suspended = 0 ORDER BY id",
      )
    ).rows;
    const budi = await login(a, 'member@demo.test');
    const rina = await login(b, 'member2@demo.test');
    const onA = accounts.filter((r) => r.user_id === budi.user.id).slice(0, 2).map((r) => r.id);
    const onB = accounts.filter((r) => r.user_id === rina.user.id).slice(0, 2).map((r) => r.id);
    expect(onA).toHaveLength(2);
    expect(onB).toHaveLength(2);
    const all = [...onA, ...onB];
    const before = new Map(
      (
        await db.query<{ id: number; count_success: string; count_fail: string; income: string }>(
          'SELECT id, count_success, count_fail, income FROM whatsapps WHERE id = ANY($1)',
          [all],
        )
      ).rows.map((r) => [r.id, { success: Number(r.count_success), fail: Number(r.count_fail), income: Number(r.income) }]),
    );
    const usersBefore = new Map(
      (await db.query<{ id: number; income: string }>('SELECT id, income FROM users')).rows.map((r) => [r.id, Number(r.income)]),
    );
    const lastLogBefore = Number((await db.query<{ m: string | null }>('SELECT max(id) AS m FROM message_logs')).rows[0]!.m ?? 0);
    const lastCreditBefore = Number((await db.query<{ m: string | null }>('SELECT max(id) AS m FROM referral_credits')).rows[0]!.m ?? 0);

    // The admin watches the WhatsApp list on node B only; every socket.io frame it receives is kept.
    const frames: Array<{ at: number; event: string; id: unknown }> = [];
    page.on('websocket', (ws) => {
      ws.on('framereceived', (f) => {
        const text = typeof f.payload === 'string' ? f.payload : f.payload.toString();
        if (!text.startsWith('42')) return;
        try {
          type Message = { event: string; data?: { id?: unknown } };
          const [, message] = JSON.parse(text.slice(2)) as [string, Message];
          // A batch (docs/realtime.md) carries the messages of its window, in order.
          for (const m of unpackMessages(message) as Message[]) frames.push({ at: Date.now(), event: m.event, id: m.data?.id });
        } catch {
          // not an event frame
        }
      });
    });
    const adminLogin = await login(b, 'admin@demo.test');
    await page.context().addCookies([
      { name: 'authToken', value: adminLogin.token, domain: '127.0.0.1', path: '/' },
      { name: 'user', value: encodeURIComponent(JSON.stringify(adminLogin.user)), domain: '127.0.0.1', path: '/' },
    ]);
    await page.goto(`${b.base}/whatsapp`);
    await expect(page.getByRole('table')).toBeVisible();

    for (const id of onA) await startBlast(a, budi.token, id);
    for (const id of onB) await startBlast(b, rina.token, id);
    const leaseHolders = async () =>
      (await db.query<{ work_id: number; node: string }>("SELECT work_id, node FROM leases WHERE kind = 'account' ORDER BY work_id")).rows;
    const held = await leaseHolders();
    for (const id of onA) expect(held.find((l) => l.work_id === id)?.node).toMatch(/^nodeA:/);
    for (const id of onB) expect(held.find((l) => l.work_id === id)?.node).toMatch(/^nodeB:/);

    // Both nodes send; the browser on B sees counts of A's accounts.
    const logged = async (ids: number[]) =>
      Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM message_logs WHERE id > $1 AND whatsapp_id = ANY($2)', [lastLogBefore, ids])).rows[0]!.n);
    await until('sends from node A', () => logged(onA), (n) => n >= 40, 30_000);
    await until('sends from node B', () => logged(onB), (n) => n >= 40, 30_000);
    await until(
      "live events of node A's accounts in the browser on node B",
      async () => frames.filter((f) => onA.includes(f.id as number) && f.event.startsWith('count_')).length,
      (n) => n >= 2,
      10_000,
    );

    // Node A dies mid-blast.
    const killedAt = Date.now();
    const sentByABeforeKill = await logged(onA);
    a.proc.kill('SIGKILL');
    await a.exited;
    const remaining = Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM phone_numbers WHERE status = 'active' AND last_sent IS NULL")).rows[0]!.n);
    expect(remaining, 'the blast was still running when the node died').toBeGreaterThan(100);

    // B takes A's accounts over within 15 s and goes on sending from them.
    const takeover = await until(
      "node B holding node A's accounts",
      async () => (await leaseHolders()).filter((l) => onA.includes(l.work_id) && l.node.startsWith('nodeB:')).length,
      (n) => n === onA.length,
      15_000,
    );
    expect(takeover).toBe(onA.length);
    const tookMs = Date.now() - killedAt;
    expect(tookMs).toBeLessThan(15_000);
    console.log(`Node B held node A's accounts ${tookMs} ms after the kill`);
    // B's log records the takeover: every account of A, across however many sweeps took them (each
    // sweep writes its line once its accounts are going, just after their leases).
    const tookOverLines = () =>
      b.output
        .join('')
        .split('\n')
        // Whole lines only: the last chunk read may end mid-line.
        .filter((line) => line.includes('Took over') && line.trim().endsWith('}'))
        .map((line) => JSON.parse(line) as { resumed: number; idled: number; node: string });
    const tookOver = await until("node B's takeover log", async () => tookOverLines(), (lines) => lines.reduce((n, l) => n + l.resumed + l.idled, 0) === onA.length, 10_000);
    expect(tookOver.length).toBeGreaterThan(0);
    expect(tookOver.reduce((n, l) => n + l.resumed + l.idled, 0)).toBe(onA.length);
    expect(tookOver[0]!.node).toMatch(/^nodeB:/);
    await until('sends from the taken-over accounts', () => logged(onA), (n) => n > sentByABeforeKill + 10, 20_000);

    // The blast runs to its end on B.
    await until(
      'every account idle',
      async () => Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM whatsapps WHERE status = 'sending'")).rows[0]!.n),
      (n) => n === 0,
      120_000,
    );

    // No number was messaged twice within the cooldown.
    const twice = await db.query('SELECT number, count(*) FROM message_logs WHERE id > $1 GROUP BY number HAVING count(*) > 1', [lastLogBefore]);
    expect(twice.rows).toEqual([]);
    // Nothing is left claimed.
    expect(Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM phone_numbers WHERE in_use = 1')).rows[0]!.n)).toBe(0);
    // Every account's counters and income moved by exactly what its log says.
    const logs = (
      await db.query<{ whatsapp_id: number; ok: string; failed: string; income: string }>(
        `SELECT whatsapp_id, sum(CASE WHEN success = 1 THEN 1 ELSE 0 END) AS ok, sum(CASE WHEN success = 1 THEN 0 ELSE 1 END) AS failed,
                sum(income) AS income FROM message_logs WHERE id > $1 GROUP BY whatsapp_id`,
        [lastLogBefore],
      )
    ).rows;
    const after = (
      await db.query<{ id: number; count_success: string; count_fail: string; income: string }>(
        'SELECT id, count_success, count_fail, income FROM whatsapps WHERE id = ANY($1)',
        [all],
      )
    ).rows;
    for (const row of after) {
      const log = logs.find((l) => l.whatsapp_id === row.id);
      const was = before.get(row.id)!;
      expect({ id: row.id, success: Number(row.count_success) - was.success, fail: Number(row.count_fail) - was.fail, income: Number(row.income) - was.income }).toEqual({
        id: row.id,
        success: Number(log?.ok ?? 0),
        fail: Number(log?.failed ?? 0),
        income: Number(log?.income ?? 0),
      });
      expect(Number(log?.ok ?? 0) + Number(log?.failed ?? 0)).toBeGreaterThan(0);
    }
    // Users' income moved by exactly their blast income in the log; each referral credit is the
    // settings' percentage of the income it came from (credits count in the balance, not in income).
    const earned = new Map(
      (await db.query<{ user_id: number; s: string }>('SELECT user_id, sum(income) AS s FROM message_logs WHERE id > $1 GROUP BY user_id', [lastLogBefore])).rows.map((r) => [
        r.user_id,
        Number(r.s),
      ]),
    );
    for (const u of (await db.query<{ id: number; income: string }>('SELECT id, income FROM users')).rows) {
      expect({ user: u.id, delta: Number(u.income) - (usersBefore.get(u.id) ?? 0) }).toEqual({ user: u.id, delta: earned.get(u.id) ?? 0 });
    }
    const credits = (
      await db.query<{ referrer_id: number; amount: string; income: string; percent: string }>(
        `SELECT c.referrer_id, c.amount, l.income, s.referral_percent AS percent FROM referral_credits c
         JOIN message_logs l ON l.id = c.message_log_id CROSS JOIN settings s WHERE c.id > $1`,
        [lastCreditBefore],
      )
    ).rows;
    expect(credits.length, "Rina's referrer is credited").toBeGreaterThan(0);
    for (const c of credits) {
      expect(c.referrer_id).toBe(budi.user.id);
      expect(Number(c.amount)).toBe(Math.floor((Number(c.income) * Number(c.percent)) / 100));
    }
    const rinaEarnings = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM message_logs WHERE id > $1 AND user_id = $2 AND income > 0', [lastLogBefore, rina.user.id])).rows[0]!.n);
    expect(credits.length).toBe(rinaEarnings);
    // The survivor's own accounts never changed hands.
    expect(b.proc.exitCode).toBeNull();
  } finally {
    for (const n of nodes) if (n.proc.exitCode === null) n.proc.kill('SIGKILL');
    await Promise.all(nodes.map((n) => n.exited));
    await db.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
});
