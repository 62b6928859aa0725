import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Express, Response } from 'express';
import { io as ioClient, type Socket } from 'socket.io-client';
import request from 'supertest';
import type { Role } from '../common/roles';
import { BATCH_EVENT, isLiveMessage, unpackMessages } from '../common/live';
import { TEST_SIM_TOKEN, testConfig, type Config } from '../server/src/config';
import { createTestDb, closeDb } from '../server/src/db/client';
import { settings } from '../server/src/db/schema';
import { eq } from 'drizzle-orm';
import { createContext, type AppContext } from '../server/src/context';
import { createServer } from '../server/src/server';
import { createUser, issueToken } from '../server/src/auth/service';
import type { UserRow } from '../server/src/users/view';

export interface TestUser {
  row: UserRow;
  id: number;
  token: string;
  auth: { Authorization: string };
}

export interface TestApp {
  ctx: AppContext;
  baseUrl: string;
  http: ReturnType<typeof request>;
  /** A new user of a role with a token (password 'password123'). */
  user(role: Role, fields?: Partial<{ firstname: string; lastname: string; email: string; referredBy: number }>): Promise<TestUser>;
  /**
   * A socket.io client signed in with a token (or none). Its listeners get a batch's messages one by
   * one, as the console's live provider does (`unbatched`); `raw` keeps the socket messages as sent.
   */
  socket(token?: string, origin?: string, options?: { raw?: boolean }): Socket;
  close(): Promise<void>;
}

let counter = 0;

/** The real app on a real SQLite database (in memory unless `dbFile`), listening on a free port with socket.io. */
export async function startTestApp(overrides: Partial<Config> = {}, options: { dbFile?: boolean } = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-test-'));
  fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
  const config = testConfig({ dataDir, ...overrides });
  // A database file when a test needs a second connection (work in a worker thread).
  const db = await createTestDb(options.dbFile ? path.join(dataDir, 'test.db') : undefined);
  // 'Jam Kirim' always open, so no test depends on the hour it runs at; the window's own tests set theirs.
  await db.update(settings).set({ sendFrom: '00:00', sendTo: '00:00' }).where(eq(settings.id, 1));
  const ctx = createContext(config, db, () => undefined);
  const { app, server, close } = createServer(ctx);
  const uncoded = watchErrorCodes(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sockets: Socket[] = [];

  return {
    ctx,
    baseUrl,
    http: request(baseUrl),
    async user(role, fields = {}) {
      counter += 1;
      const row = await createUser(db, {
        firstname: fields.firstname ?? `${role}${counter}`,
        lastname: fields.lastname ?? 'Test',
        email: fields.email ?? `${role}${counter}-${Date.now()}@test.local`,
        password: 'password123',
        role,
        referredBy: fields.referredBy ?? null,
      });
      const token = await issueToken(ctx, row, false);
      return { row, id: row.id, token, auth: { Authorization: `Bearer ${token}` } };
    },
    socket(token, origin, options = {}) {
      const s = ioClient(baseUrl, {
        auth: token ? { token } : {},
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        extraHeaders: origin ? { Origin: origin } : undefined,
      });
      sockets.push(s);
      return options.raw ? s : unbatched(s);
    },
    async close() {
      for (const s of sockets) s.disconnect();
      await close();
      await closeDb(db);
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (uncoded.length) throw new Error(`Error answers without a code (give their messages one in common/errors.ts):\n${uncoded.join('\n')}`);
    },
  };
}

/**
 * Records every JSON answer with status ≥ 400 that has no `code`: each error message has a stable code
 * (common/errors.ts), so the console can show it in its language. `close()` of the test app fails on any.
 */
export function watchErrorCodes(app: Express): string[] {
  const uncoded: string[] = [];
  const json = app.response.json;
  app.response.json = function (this: Response, body?: unknown) {
    if (this.statusCode >= 400 && !(body && typeof body === 'object' && 'code' in body)) {
      uncoded.push(`${this.req.method} ${this.req.originalUrl.split('?')[0]} → ${this.statusCode} ${JSON.stringify(body)?.slice(0, 300)}`);
    }
    return json.call(this, body);
  };
  return uncoded;
}

/**
 * Hands a `batch` socket message's messages (docs/realtime.md) to the channel's listeners one by one,
 * in order, as the console's live provider does, so a test listens with `socket.on(channel, …)`.
 */
export function unbatched(socket: Socket): Socket {
  // Every incoming event goes through emitEvent([channel, ...args]); the socket's own emit sends.
  const inner = socket as unknown as { emitEvent(args: unknown[]): void };
  const deliver = inner.emitEvent.bind(socket);
  inner.emitEvent = (args) => {
    const [channel, msg] = args as [string, unknown];
    if (isLiveMessage(msg) && msg.event === BATCH_EVENT) for (const part of unpackMessages(msg)) deliver([channel, part]);
    else deliver(args);
  };
  return socket;
}

/** Resolves when the socket connects, rejects on a connect error. */
export function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.connected) return resolve();
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
}

/** Waits for the next message on a channel matching a predicate. */
export function nextMessage<T = Record<string, unknown>>(
  socket: Socket,
  channel: string,
  match: (msg: { event: string; data: T; date: string }) => boolean = () => true,
  timeoutMs = 5000,
): Promise<{ event: string; data: T; date: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(channel, listener);
      reject(new Error(`No matching message on ${channel} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (msg: { event: string; data: T; date: string }) => {
      if (!match(msg)) return;
      clearTimeout(timer);
      socket.off(channel, listener);
      resolve(msg);
    };
    socket.on(channel, listener);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The header that opens /api/sim/* in tests (testConfig sets the same SIM_TOKEN). */
export const SIM = { 'X-Sim-Token': TEST_SIM_TOKEN };
