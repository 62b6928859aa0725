import { SIM } from '../helpers';
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { eq, sql as raw } from 'drizzle-orm';
import { rawAll, rawGet } from '../../server/src/db/raw';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { closeDb, openDb, type Db } from '../../server/src/db/client';
import { messageTemplates, phoneNumbers, settings } from '../../server/src/db/schema';
import { createUser } from '../../server/src/auth/service';
import { simNumbers } from '../../server/src/gateway/simulator/network';
import { invariantViolations } from './engine-fixtures';

const SEED = 'crash-test';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-crash-'));
const dbFile = path.join(dataDir, 'blast.db');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `main.ts` as its own process on DATA_DIR and answers its base URL once it listens. */
function startServer(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO: '0',
      SIM_SEED: SEED,
      SIM_LATENCY_MS: '15',
      SIM_FAILURE_RATE: '0.2',
      SIM_TOKEN: SIM['X-Sim-Token'],
      CLIENT_DIST: path.join(dataDir, 'no-client'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Blast console on (http:\/\/localhost:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1]!.replace('localhost', '127.0.0.1') });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}

async function login(base: string): Promise<{ Authorization: string }> {
  const res = await request(base).post('/api/auth/login').send({ email: 'crash@test.local', password: 'password123' });
  expect(res.status).toBe(200);
  return { Authorization: `Bearer ${res.body.token}` };
}

async function link(base: string, auth: { Authorization: string }, i: number): Promise<number> {
  const http = request(base);
  const deviceId = `id-${Date.now()}-${i}`;
  await http.post('/api/admin/whatsapp/new-client').set(auth).send({ deviceId, previousDeviceId: null }).expect(200);
  const qr = await http.get(`/api/admin/whatsapp/qr-new-client/${deviceId}`).set(auth).expect(200);
  await http.post('/api/sim/scan').set(SIM).send({ qr: qr.body.qr, phonenumber: `628129876000${i}` }).expect(200);
  const message = await http.get(`/api/admin/whatsapp/listen-message-created/${deviceId}`).set(auth).expect(200);
  const saved = await http.post('/api/admin/whatsapp/save').set(auth).send({ ...message.body.message, user_id: null }).expect(200);
  return saved.body.whatsapp.id as number;
}

/** A read-only view of the file the server processes write (this test is about SQLite's durability). */
const reader = () => drizzle(new Database(dbFile, { readonly: true, fileMustExist: true })) as unknown as Db;
const count = async (db: Db, sql: string) => Number((await rawGet<{ n: number }>(db, raw.raw(sql)))?.n ?? 0);

async function until(fn: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a SIGKILL in the middle of a blast', () => {
  it('keeps every invariant across the restart and resumes the loops that were running', async () => {
    // The database as an earlier run left it: a referred member, 600 targets, a template.
    const setup = await openDb(dbFile);
    const referrer = await createUser(setup, { firstname: 'Ref', lastname: 'X', email: 'ref@test.local', password: 'password123' });
    await createUser(setup, { firstname: 'Crash', lastname: 'Test', email: 'crash@test.local', password: 'password123', referredBy: referrer.id });
    await setup.update(settings).set({ intervalMin: 0, intervalMax: 0, price: 30, referralPercent: 10, recipientCooldownHours: 24, sendFrom: '00:00', sendTo: '00:00' }).where(eq(settings.id, 1));
    await setup.insert(messageTemplates).values({ text: 'Halo {name}', textWa: 'Halo {name}' });
    const numbers = simNumbers(SEED, 500).map((n) => ({ number: n.number, name: n.name ?? '' }));
    const unregistered = simNumbers(SEED, 100, { registered: false }).map((n) => ({ number: n.number, name: '' }));
    await setup.insert(phoneNumbers).values([...numbers, ...unregistered]);
    await closeDb(setup);

    const first = await startServer();
    const auth = await login(first.base);
    const ids = [await link(first.base, auth, 1), await link(first.base, auth, 2)];
    for (const id of ids) {
      await request(first.base).post('/api/admin/whatsapp/start-blasting').set(auth).send({ whatsappClientId: id, socketClientId: 'x', loop: true }).expect(200);
    }
    const db = reader();
    await until(async () => (await count(db, 'SELECT count(*) AS n FROM message_logs')) >= 60, 20_000);
    // Kill while claims are held (sends in flight or between retries).
    await until(async () => (await count(db, 'SELECT count(*) AS n FROM phone_numbers WHERE in_use = 1')) > 0, 5_000);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const held = await rawAll<{ id: number; number: string }>(db, raw`SELECT id, number FROM phone_numbers WHERE in_use = 1`);
    const logsAtKill = await count(db, 'SELECT count(*) AS n FROM message_logs');
    expect(held.length).toBeGreaterThan(0);
    // Every committed attempt is whole: only the claims of unfinished attempts are left over.
    expect((await invariantViolations(db, 10)).filter((v) => !v.startsWith('in use'))).toEqual([]);
    expect(await count(db, "SELECT count(*) AS n FROM whatsapps WHERE status = 'sending'")).toBe(2);

    const second = await startServer();
    await until(async () => (await count(db, 'SELECT count(*) AS n FROM message_logs')) > logsAtKill + 20, 20_000);

    // A graceful stop (SIGTERM) lets the sends in flight finish and leaves no claim; the rows stay
    // 'sending', so the next start resumes them.
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
    expect(await invariantViolations(db, 10)).toEqual([]);
    expect(await count(db, "SELECT count(*) AS n FROM whatsapps WHERE status = 'sending'")).toBe(2);
    const logsAtTerm = await count(db, 'SELECT count(*) AS n FROM message_logs');

    const third = await startServer();
    await until(async () => (await count(db, 'SELECT count(*) AS n FROM message_logs')) > logsAtTerm + 20, 20_000);
    const auth2 = await login(third.base);
    for (const id of ids) {
      const res = await request(third.base).post('/api/admin/whatsapp/stop-blasting').set(auth2).send({ whatsappClientId: id, socketClientId: 'x' });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('idle');
    }
    expect(await invariantViolations(db, 10)).toEqual([]);
    // No number was attempted twice (24 h cooldown), and the attempts cut short by the kill were
    // neither counted nor sent again.
    expect(await count(db, 'SELECT count(*) AS n FROM (SELECT number FROM message_logs GROUP BY number HAVING count(*) > 1)')).toBe(0);
    for (const h of held) {
      const row = (await rawGet<Record<string, number | null>>(db, raw`SELECT in_use, count_success, count_fail, last_sent FROM phone_numbers WHERE id = ${h.id}`))!;
      expect(row).toMatchObject({ in_use: 0, count_success: 0, count_fail: 0 });
      expect(row.last_sent).not.toBeNull();
      expect(await count(db, `SELECT count(*) AS n FROM message_logs WHERE phone_number_id = ${h.id}`)).toBe(0);
    }
    db.$client.close();
    third.child.kill('SIGTERM');
    await new Promise((r) => third.child.once('exit', r));
  }, 90_000);
});
