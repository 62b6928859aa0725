import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, openDb } from '../../server/src/db/client';
import { phoneNumbers, users } from '../../server/src/db/schema';
import { createUser } from '../../server/src/auth/service';
import { startServerProcess } from '../server-process';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A data dir whose SQLite database already holds an admin (as an earlier run would have left it). */
async function seededDir(): Promise<{ dir: string; dbFile: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-shutdown-'));
  dirs.push(dir);
  const dbFile = path.join(dir, 'blast.db');
  const db = openDb(dbFile);
  await createUser(db, { firstname: 'Ops', lastname: 'Test', email: 'ops@test.local', password: 'password123', role: 'admin' });
  await closeDb(db);
  return { dir, dbFile };
}

/** Starts `main.ts` as its own process on SQLite in `dir`, JSON logs on, and answers once it listens. */
const startServer = (dir: string, shutdownTimeoutMs: number) =>
  startServerProcess(dir, { SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs) }, children);

/** The process's JSON log lines (the startup lines before them are plain text). */
const jsonLines = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function call(port: number, method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * A request whose body is sent in two halves: the server has it in flight from the first half on, and
 * answers only once `finish()` sends the rest. `inFlight` resolves once the server has parsed the headers
 * (it answers the `Expect: 100-continue` with 100 Continue), so the connection is a request's, not an idle one.
 * `response` never rejects unseen: a reset is kept until the test awaits it.
 */
function heldRequest(port: number, method: string, url: string, body: unknown, headers: Record<string, string>) {
  const payload = Buffer.from(JSON.stringify(body));
  const half = Math.floor(payload.length / 2);
  const req = http.request({
    host: '127.0.0.1',
    port,
    method,
    path: url,
    agent: false,
    headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(payload.length), Expect: '100-continue' },
  });
  const inFlight = new Promise<void>((resolve) => req.once('continue', () => resolve()));
  const response = new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, connection: res.headers.connection }));
      res.on('error', reject);
    });
    req.once('error', reject);
  });
  response.catch(() => undefined);
  void inFlight.then(() => req.write(payload.subarray(0, half)));
  req.flushHeaders();
  return { response, inFlight, finish: () => void inFlight.then(() => req.end(payload.subarray(half))) };
}

/** Resolves with the error code of a new TCP connection to the port (or 'connected'). */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

async function refusedWithin(port: number, ms: number): Promise<string> {
  const end = Date.now() + ms;
  let last = '';
  while (Date.now() < end) {
    last = await tryConnect(port);
    if (last !== 'connected') return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  return last;
}

describe('SIGTERM', () => {
  it('stops accepting, lets the request in flight finish, closes the database and exits 0', async () => {
    const { dir, dbFile } = await seededDir();
    const TIMEOUT = 8000;
    const server = await startServer(dir, TIMEOUT);
    const login = await call(server.port, 'POST', '/api/auth/login', { email: 'ops@test.local', password: 'password123' });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    const saved = await call(server.port, 'POST', '/api/admin/phonenumber/save', { number: '081299998888', name: 'Before' }, token);
    expect(saved.status).toBe(201);
    const [row] = await (async () => {
      const list = await call(server.port, 'GET', '/api/admin/phonenumber/list-per-page?search=before', undefined, token);
      return list.body.data as Array<{ id: number }>;
    })();
    expect(row?.id).toBeGreaterThan(0);

    // An edit whose body is still arriving when the signal comes.
    const held = heldRequest(
      server.port,
      'PUT',
      `/api/admin/phonenumber/${row!.id}`,
      { number: '081299998888', name: 'Edited during shutdown', status: 'active' },
      { Authorization: `Bearer ${token}`, 'X-Request-Id': 'in-flight-edit' },
    );
    await held.inFlight;
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');

    // New connections are refused while the edit is still open…
    expect(await refusedWithin(server.port, 5000)).toBe('ECONNREFUSED');
    expect(server.child.exitCode).toBeNull();
    // …and the edit, once its body is complete, is answered and committed.
    held.finish();
    const answer = await held.response;
    expect(answer.status).toBe(200);
    expect(answer.connection).toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ phoneNumber: { name: 'Edited during shutdown' } });

    const { code, at } = await server.exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(TIMEOUT);

    // The shutdown and the request went through the logger, as JSON lines with the request's id.
    const lines = jsonLines(server.output());
    const msgs = lines.map((l) => l.msg);
    expect(msgs).toEqual(expect.arrayContaining(['SIGTERM: shutting down', 'waiting for requests in flight', 'connections closed', 'stopped']));
    expect(msgs.indexOf('stopped')).toBeGreaterThan(msgs.indexOf('SIGTERM: shutting down'));
    expect(lines.find((l) => l.reqId === 'in-flight-edit')).toMatchObject({ method: 'PUT', url: `/api/admin/phonenumber/${row!.id}`, status: 200 });
    expect(server.output()).not.toContain(token);
    expect(server.output()).not.toContain('password123');

    // The database opens afterwards with its data, the edit made during the shutdown included.
    const db = openDb(dbFile);
    try {
      const [number] = await db.select().from(phoneNumbers).where(eq(phoneNumbers.id, row!.id));
      expect(number?.name).toBe('Edited during shutdown');
      const [admin] = await db.select().from(users).where(eq(users.email, 'ops@test.local'));
      expect(admin?.role).toBe('admin');
    } finally {
      await closeDb(db);
    }
  }, 60_000);

  it('cuts a request still open after SHUTDOWN_TIMEOUT_MS and still exits 0', async () => {
    const { dir } = await seededDir();
    const TIMEOUT = 1500;
    const server = await startServer(dir, TIMEOUT);
    const held = heldRequest(server.port, 'POST', '/api/auth/login', { email: 'ops@test.local', password: 'password123' }, {});
    const outcome = held.response.then(
      (r) => `answered ${r.status}`,
      (err: NodeJS.ErrnoException) => err.code ?? err.message,
    );
    await held.inFlight;
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');

    const { code, at } = await server.exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeGreaterThanOrEqual(TIMEOUT - 100);
    expect(at - signalledAt).toBeLessThan(TIMEOUT + 5000);
    expect(await outcome).toMatch(/ECONNRESET|socket hang up/);
    const msgs = jsonLines(server.output()).map((l) => l.msg);
    expect(msgs).toContain('requests still in flight after the timeout: closing them');
    expect(msgs[msgs.length - 1]).toBe('stopped');
  }, 60_000);
});
