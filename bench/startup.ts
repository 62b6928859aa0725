/**
 * Start-up benchmark: a data dir whose SQLite database holds `--accounts` saved WhatsApp accounts (a
 * `--sending` share of them were blasting when the last process stopped), then the real server process
 * (`node --import tsx server/src/main.ts`) started on it. Prints the time until GET /api/health and GET
 * /signin first answer 200, the peak RSS of the process during the first `--watch` seconds, and when the
 * saved sessions were all re-opened and every sending account resumed (from the process's own lines).
 * Targets: /signin within 5 s, peak RSS under 500 MB at 100,000 accounts.
 *
 * With `--built` the compiled server (`dist/server/main.js`, built first if stale) is started instead of
 * the TypeScript sources through tsx, whose compilation of every module alone takes seconds.
 *
 * `npx tsx bench/startup.ts [--accounts 100000] [--sending 2000] [--numbers 20000] [--watch 30] [--built]`
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { closeDb, openDb } from '../server/src/db/client';
import { messageTemplates, settings } from '../server/src/db/schema';
import { createUser } from '../server/src/auth/service';
import { numberArg } from './lib/contacts-data';
import { fillPhoneNumbers } from './lib/list-fill';
import { fillSavedAccounts } from './lib/accounts-fill';
import { procMemory } from './lib/proc';

const ACCOUNTS = numberArg('--accounts', 100_000);
const SENDING = numberArg('--sending', 2_000);
const NUMBERS = numberArg('--numbers', 20_000);
const WATCH_S = numberArg('--watch', 30);
const BUILT = process.argv.includes('--built');

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function status(url: string): Promise<number> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-startup-'));
  try {
    const fillStart = Date.now();
    const db = openDb(path.join(dir, 'blast.db'));
    await createUser(db, { firstname: 'Ops', lastname: 'Bench', email: 'ops@bench.test', password: 'password123', role: 'admin' });
    await db.update(settings).set({ intervalMin: 5, intervalMax: 10, sendFrom: '00:00', sendTo: '00:00' }).where(eq(settings.id, 1));
    await db.insert(messageTemplates).values({ text: 'Halo {name}', textWa: 'Halo {name}' });
    fillPhoneNumbers(db.$client, 0, NUMBERS);
    const filled = await fillSavedAccounts(db, { accounts: ACCOUNTS, sending: SENDING, members: Math.max(1, Math.ceil(ACCOUNTS / 20)) });
    db.$client.pragma('wal_checkpoint(TRUNCATE)');
    await closeDb(db);
    console.log(`filled ${ACCOUNTS} accounts (${filled.sending} sending, ${filled.restorable} with a session to re-open), ${NUMBERS} numbers in ${Date.now() - fillStart} ms`);

    // A stand-in for the built client: /signin answers with its index.html, as the SPA's shell.
    const clientDir = path.join(dir, 'client');
    fs.mkdirSync(clientDir);
    fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Blast</title><div id="root"></div>');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO: '0',
      SIM_LATENCY_MS: '50',
      CLIENT_DIST: clientDir,
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    if (BUILT) execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale', 'server'], { stdio: 'inherit' });
    const args = BUILT ? ['--enable-source-maps', 'dist/server/main.js'] : ['--import', 'tsx', 'server/src/main.ts'];
    const started = Date.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const marks: Record<string, number> = {};
    const onData = (d: Buffer) => {
      out += d.toString();
      const at = Date.now() - started;
      if (!marks.listening && /Blast console on http:\/\/localhost:\d+/.test(out)) marks.listening = at;
      if (!marks.restored && /Saved sessions re-opened/.test(out)) marks.restored = at;
      if (!marks.recovered && /Blast recovery/.test(out)) marks.recovered = at;
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    let exited = false;
    child.once('exit', () => (exited = true));


    while (!marks.listening && !exited && Date.now() - started < 60_000) await sleep(20);
    const port = Number(/Blast console on http:\/\/localhost:(\d+)/.exec(out)?.[1] ?? 0);
    if (!port) throw new Error(`the server did not start:\n${out}`);
    const base = `http://127.0.0.1:${port}`;
    let health = 0;
    let signin = 0;
    while ((!health || !signin) && Date.now() - started < 60_000) {
      if (!health && (await status(`${base}/api/health`)) === 200) health = Date.now() - started;
      if (!signin && (await status(`${base}/signin`)) === 200) signin = Date.now() - started;
      if (!health || !signin) await sleep(20);
    }
    // Answer times while the restore runs: a request every 100 ms until the watch ends.
    const answers: number[] = [];
    while (Date.now() - started < WATCH_S * 1000 && !exited) {
      const t = Date.now();
      if ((await status(`${base}/api/health`)) === 200) answers.push(Date.now() - t);
      await sleep(100);
    }
    // The process's own high-water mark: its peak since it started.
    const peak = (procMemory(child.pid!, 'VmHWM') ?? 0) / 1024 / 1024;
    answers.sort((a, b) => a - b);
    const p99 = answers[Math.min(answers.length - 1, Math.floor(answers.length * 0.99))] ?? 0;
    const recovery = /Blast recovery: ([^\n]*)/.exec(out)?.[1] ?? '(no recovery line)';
    const restore = /Saved sessions re-opened[^\n]*/.exec(out)?.[0] ?? '(no restore line)';
    const sinceListening = (ms: number) => (ms && marks.listening ? `(${ms - marks.listening} ms after the listening line)` : '');
    console.log(`${BUILT ? 'dist/server/main.js' : 'tsx server/src/main.ts'}: times from the spawn`);
    console.log(`listening after        ${marks.listening ?? '-'} ms`);
    console.log(`GET /api/health 200    ${health || '-'} ms   ${sinceListening(health)}`);
    console.log(`GET /signin 200        ${signin || '-'} ms   ${sinceListening(signin)}   (target < 5000 ms)`);
    console.log(`sessions re-opened     ${marks.restored ?? '-'} ms   ${restore}`);
    console.log(`sending resumed        ${marks.recovered ?? '-'} ms   ${recovery}`);
    console.log(`/api/health during the first ${WATCH_S} s: ${answers.length} answers, p99 ${p99} ms, max ${answers.at(-1) ?? 0} ms`);
    console.log(`peak RSS (first ${WATCH_S} s) ${peak.toFixed(0)} MB   (target < 500 MB)`);
    child.kill('SIGTERM');
    await new Promise((r) => (exited ? r(null) : child.once('exit', r)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
