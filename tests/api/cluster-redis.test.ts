import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { io as ioClient, type Socket } from 'socket.io-client';
import { createClient } from 'redis';
import { testConfig } from '../../server/src/config';
import { closeDb, createTestDb, type Db } from '../../server/src/db/client';
import { createContext, type AppContext } from '../../server/src/context';
import { createServer } from '../../server/src/server';
import { createUser, issueToken } from '../../server/src/auth/service';
import { connectRedis } from '../../server/src/cluster/redis';

const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function unreachable(url: string): Promise<string | null> {
  const c = createClient({ url, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.quit();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
const down = await unreachable(REDIS);
if (down) console.warn(`\n!!! Redis tests SKIPPED: ${REDIS} does not answer (${down}) !!!\n`);

interface Node {
  ctx: AppContext;
  url: string;
  close: () => Promise<void>;
}

/** Two nodes: each its own app, socket.io and Redis link, one database file and one Redis prefix. */
describe.skipIf(down !== null)('two nodes sharing Redis', () => {
  const prefix = `blast-test-${crypto.randomBytes(4).toString('hex')}:`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-redis-'));
  let db: Db;
  const nodes: Node[] = [];
  const sockets: Socket[] = [];

  async function startNode(): Promise<Node> {
    const ctx = createContext(testConfig({ dataDir }), db, () => undefined);
    ctx.redis = await connectRedis(REDIS, prefix);
    const { server, close } = createServer(ctx);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      ctx,
      url,
      close: async () => {
        await close();
        await ctx.redis?.close();
      },
    };
  }

  beforeAll(async () => {
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    db = await createTestDb(path.join(dataDir, 'shared.db'));
    nodes.push(await startNode(), await startNode());
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    for (const n of nodes) await n.close();
    const c = createClient({ url: REDIS });
    await c.connect();
    for await (const keys of c.scanIterator({ MATCH: `${prefix}*` })) if (keys.length) await c.del(keys);
    await c.quit();
    await closeDb(db);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers an event emitted on one node to a socket connected to the other', async () => {
    const [a, b] = nodes as [Node, Node];
    const member = await createUser(db, { firstname: 'Rina', lastname: 'Dua', email: `rina-${prefix}@test.local`, password: 'password123', role: 'member', referredBy: null });
    const token = await issueToken(b.ctx, member, false);
    const socket = ioClient(b.url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const received = new Promise<{ event: string; data: unknown }>((resolve) => socket.once(String(member.id), resolve));
    // Give the subscription a moment to reach Redis before node A publishes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    a.ctx.realtime.toUserAndAdmin(member.id, 'balance', { balance: 1234 });
    const message = await received;
    expect(message).toMatchObject({ event: 'balance', data: { balance: 1234 } });
  });

  it('counts sign-in failures across nodes', async () => {
    const email = `nobody-${prefix}@test.local`;
    const codes: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const node = nodes[i % 2]!;
      const res = await request(node.url).post('/api/auth/login').send({ email, password: 'wrong-password' });
      codes.push(res.status);
    }
    // Ten failures are answered as such, whichever node got them; the eleventh is locked out.
    expect(codes.slice(0, 10).every((c) => c !== 429)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});
