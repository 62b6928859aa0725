import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { eq, sql as raw } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, openDb, type Db } from '../../server/src/db/client';
import { rawAll, rawGet } from '../../server/src/db/raw';
import { messageTemplates, settings } from '../../server/src/db/schema';
import { createUser } from '../../server/src/auth/service';
import { fillSavedAccounts } from '../../bench/lib/accounts-fill';
import { fillPhoneNumbers } from '../../bench/lib/list-fill';
import { startServerProcess } from '../server-process';

const ACCOUNTS = 3_000;
const SENDING = 30;

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Starts `main.ts` on SQLite in `dir` with a slowed-down restore (pages of 100, 100 ms apart). */
const startServer = (dir: string) => startServerProcess(dir, { RESTORE_BATCH: '100', RESTORE_PAUSE_MS: '100' }, children, 60_000);

async function until(fn: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const RESTORED = /Saved sessions re-opened: (\d+)/;
const RECOVERED = /Blast recovery: (\d+) claim\(s\) released, (\d+) loop\(s\) resumed, (\d+) shown idle/;

describe('start-up with thousands of saved accounts', () => {
  it('answers before the saved sessions are all re-opened, shows unreached accounts as saved, and resumes the sending ones', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-startup-'));
    dirs.push(dir);
    const dbFile = path.join(dir, 'blast.db');
    const setup = openDb(dbFile);
    await createUser(setup, { firstname: 'Ops', lastname: 'Test', email: 'ops@test.local', password: 'password123', role: 'admin' });
    await setup.update(settings).set({ intervalMin: 0, intervalMax: 0, sendFrom: '00:00', sendTo: '00:00' }).where(eq(settings.id, 1));
    await setup.insert(messageTemplates).values({ text: 'Halo {name}', textWa: 'Halo {name}' });
    fillPhoneNumbers(setup.$client, 0, 2_000);
    const filled = await fillSavedAccounts(setup, { accounts: ACCOUNTS, sending: SENDING, members: 100 });
    const sendingIds = (await rawAll<{ id: number }>(setup, raw`SELECT id FROM whatsapps WHERE status = 'sending' ORDER BY id`)).map((r) => r.id);
    await closeDb(setup);
    expect(filled.sending).toBe(SENDING);
    expect(sendingIds).toHaveLength(SENDING);

    const server = await startServer(dir);
    const http = request(server.base);
    // Requests are answered while the restore (27 pages, 100 ms apart) is still under way.
    await http.get('/api/health').expect(200);
    const login = await http.post('/api/auth/login').send({ email: 'ops@test.local', password: 'password123' }).expect(200);
    const auth = { Authorization: `Bearer ${login.body.token}` };
    // The first page lists the highest ids, which the restore (in id order) reaches last.
    const page = await http.get('/api/admin/whatsapp/list-per-page?page=1&synced=1').set(auth).expect(200);
    const newest = await http.get(`/api/admin/whatsapp/client-state/saved-${ACCOUNTS - 1}`).set(auth).expect(200);
    expect(RESTORED.test(server.output())).toBe(false);

    // Not reached yet, yet shown as saved: a synced list does not turn them 'unknown'.
    const rows = page.body.data as Array<{ deviceId: string; state: string }>;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const i = Number(row.deviceId.replace('saved-', ''));
      const saved = i % 10 < 7 ? 'connected' : i % 10 === 7 ? 'disconnected' : i % 10 === 8 ? 'conflict' : 'loggedOut';
      expect(row.state).toBe(saved);
    }
    expect(newest.body.state).toBe('LOGGED_OUT');
    const connectedLast = (ACCOUNTS - 1) - ((ACCOUNTS - 1) % 10) + 6;
    const state = await http.get(`/api/admin/whatsapp/client-state/saved-${connectedLast}`).set(auth).expect(200);
    expect(state.body.state).toBe('CONNECTED');

    // The sending accounts resume without waiting for the whole restore.
    await until(() => RECOVERED.test(server.output()), 30_000);
    const recovered = RECOVERED.exec(server.output())!;
    expect(Number(recovered[2])).toBe(SENDING);
    expect(Number(recovered[3])).toBe(0);
    expect(RESTORED.test(server.output())).toBe(false);

    // Every one of them sends again: each has message-log rows written by this process.
    const db = drizzle(new Database(dbFile, { readonly: true, fileMustExist: true })) as unknown as Db;
    const senders = async () =>
      Number((await rawGet<{ n: number }>(db, raw`SELECT count(DISTINCT whatsapp_id) AS n FROM message_logs`))?.n ?? 0);
    await until(async () => (await senders()) === SENDING, 30_000);
    const loggedBy = (await rawAll<{ id: number }>(db, raw`SELECT DISTINCT whatsapp_id AS id FROM message_logs ORDER BY 1`)).map((r) => r.id);
    expect(loggedBy).toEqual(sendingIds);

    // The restore finishes in the background, re-opening every saved session not yet re-opened.
    await until(() => RESTORED.test(server.output()), 30_000);
    const reopened = Number(RESTORED.exec(server.output())![1]);
    expect(reopened).toBeGreaterThan(0);
    expect(reopened).toBeLessThanOrEqual(filled.restorable);
    db.$client.close();

    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
  }, 120_000);
});
