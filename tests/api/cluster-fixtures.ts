import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { createClient } from 'redis';
import type { Server as IoServer } from 'socket.io';
import { testConfig } from '../../server/src/config';
import { closeDb, createTestDb, type Db } from '../../server/src/db/client';
import { createContext, type AppContext } from '../../server/src/context';
import { createServer } from '../../server/src/server';
import { connectRedis } from '../../server/src/cluster/redis';

export const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Why Redis cannot be used (its error), or null when it answers. */
export async function redisUnreachable(url = REDIS): Promise<string | null> {
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

export interface Node {
  ctx: AppContext;
  io: IoServer;
  url: string;
  close: () => Promise<void>;
}

/**
 * Two nodes in this process, registered as the describe block's beforeAll/afterAll: each its own app,
 * socket.io and Redis link, sharing one database and one Redis key prefix (removed afterwards).
 */
export function twoNodesOnRedis(label: string) {
  const prefix = `blast-test-${crypto.randomBytes(4).toString('hex')}:`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `blast-${label}-`));
  const nodes: Node[] = [];
  const state: { db: Db | null } = { db: null };

  async function startNode(db: Db): Promise<Node> {
    const ctx = createContext(testConfig({ dataDir }), db, () => undefined);
    ctx.redis = await connectRedis(REDIS, prefix);
    const { server, io, close } = createServer(ctx);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      ctx,
      io,
      url,
      close: async () => {
        await close();
        await ctx.redis?.close();
      },
    };
  }

  beforeAll(async () => {
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    state.db = await createTestDb(path.join(dataDir, 'shared.db'));
    nodes.push(await startNode(state.db), await startNode(state.db));
    // The socket.io adapter subscribes to Redis when it is created but does not wait for the answer; an
    // event published before a node's subscription is in place is lost. serverCount() is the number of
    // subscribers to the adapter's request channel; each node subscribes to it after its broadcast pattern,
    // on the same connection, so once it counts both nodes, both receive broadcasts.
    await vi.waitFor(async () => expect(await nodes[0]!.io.of('/').adapter.serverCount()).toBe(2), { timeout: 10_000, interval: 20 });
  });

  afterAll(async () => {
    for (const n of nodes) await n.close();
    const c = createClient({ url: REDIS });
    await c.connect();
    for await (const keys of c.scanIterator({ MATCH: `${prefix}*` })) if (keys.length) await c.del(keys);
    await c.quit();
    if (state.db) await closeDb(state.db);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    prefix,
    nodes: () => nodes as [Node, Node],
    db: () => state.db!,
  };
}
