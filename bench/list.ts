/**
 * Phone-number list benchmark: GET /api/admin/phonenumber/list-per-page over 2,000,000 rows through
 * the real app (HTTP, auth, database file): first page, last page, search by a number fragment and
 * search by a name, 200 requests each. Prints p50 and p99 latency; target p99 under 50 ms.
 *
 * `npx tsx bench/list.ts [--rows N] [--requests N]`
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { testConfig } from '../server/src/config';
import { closeDb, openDb } from '../server/src/db/client';
import { createContext } from '../server/src/context';
import { createServer } from '../server/src/server';
import { createUser, issueToken } from '../server/src/auth/service';
import { ensurePhoneSearch, indexAll } from '../server/src/phonenumbers/search';
import { benchName, benchNumber, numberArg } from './lib/contacts-data';

const ROWS = numberArg('--rows', 2_000_000);
const REQUESTS = numberArg('--requests', 200);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-list-'));
  fs.mkdirSync(path.join(dir, 'uploads'));
  const db = openDb(path.join(dir, 'blast.db'));
  try {
    ensurePhoneSearch(db);
    const c = db.$client;
    let t = Date.now();
    const ins = c.prepare('INSERT INTO phone_numbers (number, name, count_success, last_sent) VALUES (?, ?, ?, ?)');
    for (let from = 0; from < ROWS; from += 50_000) {
      c.transaction(() => {
        for (let i = from; i < Math.min(ROWS, from + 50_000); i++) ins.run(benchNumber(i), benchName(i), i % 3, i % 3 ? 1_717_200_000_000 + i : null);
      })();
    }
    console.log(`inserted ${ROWS.toLocaleString()} rows in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    t = Date.now();
    indexAll(db);
    console.log(`search index built in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    const ctx = createContext(testConfig({ dataDir: dir }), db, () => undefined);
    const { server, close } = createServer(ctx);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/admin/phonenumber/list-per-page`;
    const admin = await createUser(db, { firstname: 'Bench', lastname: 'Admin', email: 'bench@admin.test', password: 'password123', role: 'admin', referredBy: null });
    const headers = { Authorization: `Bearer ${await issueToken(ctx, admin, false)}` };
    const lastPage = Math.ceil(ROWS / 10);

    const names = ['Hidayat', 'budi santoso', 'Siti', 'Rahayu 42', 'Kusuma 7', 'Dewi Lestari', 'Joko', 'Nugroho 999'];
    const scenarios: Array<{ label: string; query: (i: number) => string }> = [
      { label: 'first page', query: () => '?page=1' },
      { label: 'last page', query: () => `?page=${lastPage}` },
      // A fragment of a number that exists (digits 5–11 of the i-th number), written locally.
      { label: 'search number fragment', query: (i) => `?search=${benchNumber((i * 9973) % ROWS).slice(5, 11)}` },
      { label: 'search name', query: (i) => `?search=${encodeURIComponent(names[i % names.length]!)}` },
    ];
    const results: string[] = [];
    for (const s of scenarios) {
      const times: number[] = [];
      let lastTotal = 0;
      for (let i = 0; i < REQUESTS + 5; i++) {
        const start = performance.now();
        const res = await fetch(`${base}${s.query(i)}`, { headers });
        const body = (await res.json()) as { data: unknown[]; meta: { total: number } };
        const ms = performance.now() - start;
        if (!res.ok || !Array.isArray(body.data)) throw new Error(`${s.label}: HTTP ${res.status}`);
        lastTotal = body.meta.total;
        if (i >= 5) times.push(ms); // the first few warm the page cache
      }
      times.sort((a, b) => a - b);
      const line = `${s.label.padEnd(24)} p50 ${percentile(times, 50).toFixed(1)} ms  p99 ${percentile(times, 99).toFixed(1)} ms  (last total ${lastTotal.toLocaleString()})`;
      console.log(line);
      results.push(`${s.label}: p50=${percentile(times, 50).toFixed(1)} p99=${percentile(times, 99).toFixed(1)}`);
    }
    console.log(`RESULT list over ${ROWS.toLocaleString()} rows, ${REQUESTS} requests each: ${results.join('; ')} (target p99 < 50 ms)`);
    await close();
  } finally {
    closeDb(db);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
