/**
 * `npm run bench:client -- --lighthouse` (or `npx tsx bench/client-lighthouse.ts`): Lighthouse mobile (its
 * default: a mid-range phone, simulated slow 4G and 4× CPU slowdown) on /signin, the member dashboard and
 * /member (the admin's member list), 3 runs each, each in a fresh Chromium profile (a cold cache); prints the
 * medians of the performance score, LCP and TBT, and the machine's load average, since Lighthouse's
 * simulated throttling still scales with a busy CPU. Not a test: the figures go in the notes.
 *
 * It starts the compiled server (`node scripts/build.mjs` first) with the demo data on LH_PORT (default
 * 3911) and its own DATA_DIR, signs in through the API and hands the page its session cookies, as the
 * console's own sign-in stores them. Chromium: CHROME_PATH, else /usr/bin/chromium.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.LH_PORT ?? 3911);
const origin = `http://localhost:${port}`;
const runs = Number(process.env.LH_RUNS ?? 3);
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const dataDir = path.join(root, `data-lighthouse-${port}`);

const built = spawnSync('node', ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

fs.rmSync(dataDir, { recursive: true, force: true });
const server = spawn('node', ['dist/server/main.js'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DEMO: 'true', LOG_LEVEL: 'error' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = () => {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
};

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${origin}/api/config`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the server did not answer on ${origin}`);
}

async function session(email: string): Promise<Array<{ name: string; value: string }>> {
  const res = await fetch(`${origin}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'demo12345' }) });
  if (!res.ok) throw new Error(`sign-in as ${email}: ${res.status}`);
  const body = (await res.json()) as { token: string; user: unknown };
  return [
    { name: 'authToken', value: body.token },
    { name: 'user', value: encodeURIComponent(JSON.stringify(body.user)) },
  ];
}

interface Figures {
  score: number;
  lcp: number;
  tbt: number;
  requests: number;
}

/** One cold Lighthouse run: a new Chromium profile, the session's cookies, then the page. */
async function once(url: string, cookies: Array<{ name: string; value: string }>): Promise<Figures> {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    if (cookies.length) await browser.setCookie(...cookies.map((c) => ({ ...c, domain: 'localhost', path: '/' })));
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true }, undefined, page);
    await browser.disconnect();
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    const { lhr } = result;
    const items = (lhr.audits['network-requests']?.details as { items?: unknown[] } | undefined)?.items ?? [];
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      requests: items.length,
    };
  } finally {
    chrome.kill();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

try {
  await waitForServer();
  const targets: Array<{ label: string; path: string; who?: string; goal: number }> = [
    { label: '/signin', path: '/signin', goal: 85 },
    { label: 'member dashboard', path: '/dashboard', who: 'member@demo.test', goal: 60 },
    { label: '/member (admin)', path: '/member', who: 'admin@demo.test', goal: 60 },
  ];
  console.log(`Lighthouse mobile, ${runs} cold runs each, ${chromePath}; load average before: ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  console.log(`${'screen'.padEnd(18)} ${'perf'.padStart(5)} ${'LCP'.padStart(8)} ${'TBT'.padStart(8)} ${'requests'.padStart(9)}  runs (perf)   goal`);
  for (const t of targets) {
    const cookies = t.who ? await session(t.who) : [];
    const all: Figures[] = [];
    for (let i = 0; i < runs; i++) all.push(await once(`${origin}${t.path}`, cookies));
    const perf = median(all.map((f) => f.score));
    console.log(
      `${t.label.padEnd(18)} ${String(perf).padStart(5)} ${`${(median(all.map((f) => f.lcp)) / 1000).toFixed(1)} s`.padStart(8)} ${`${Math.round(median(all.map((f) => f.tbt)))} ms`.padStart(8)} ${String(median(all.map((f) => f.requests))).padStart(9)}  ${all.map((f) => f.score).join(', ').padEnd(12)}  ≥ ${t.goal}${perf < t.goal ? ' (below)' : ''}`,
    );
  }
  console.log(`load average after: ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
} finally {
  stop();
}
