import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createClient } from 'redis';
import { testConfig } from '../../server/src/config';
import { closeDb, createTestDb, type Db } from '../../server/src/db/client';
import { createContext, type AppContext } from '../../server/src/context';
import { createServer } from '../../server/src/server';
import { connectRedis } from '../../server/src/cluster/redis';
import { createUser } from '../../server/src/auth/service';
import { redisUnreachable, REDIS } from './cluster-fixtures';

const down = await redisUnreachable();
if (down) console.warn(`\n!!! Redis outage tests SKIPPED: ${REDIS} does not answer (${down}) !!!\n`);

/** A TCP relay to the tests' Redis that can be cut (every connection dropped, new ones refused) and restored. */
async function relay(port = 0) {
  const target = new URL(REDIS);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

describe.skipIf(down !== null)('a node whose Redis goes away', () => {
  const prefix = `blast-test-${crypto.randomBytes(4).toString('hex')}:`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-redis-outage-'));
  const failures: unknown[] = [];
  const onFailure = (err: unknown) => failures.push(err);
  let db: Db;
  let ctx: AppContext;
  let url: string;
  let close: () => Promise<void>;
  let link: Awaited<ReturnType<typeof relay>>;
  beforeAll(async () => {
    process.on('unhandledRejection', onFailure);
    process.on('uncaughtException', onFailure);
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    db = await createTestDb();
    await createUser(db, { firstname: 'Rina', lastname: 'Dua', email: 'rina@redis-outage.test', password: 'password123', role: 'member', referredBy: null });
    link = await relay();
    ctx = createContext(testConfig({ dataDir }), db, () => undefined);
    ctx.redis = await connectRedis(`redis://127.0.0.1:${link.port}`, prefix);
    const started = createServer(ctx);
    close = started.close;
    await new Promise<void>((resolve) => started.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(started.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await close?.();
    await ctx?.redis?.close();
    await closeDb(db);
    const c = createClient({ url: REDIS });
    await c.connect();
    for await (const keys of c.scanIterator({ MATCH: `${prefix}*` })) if (keys.length) await c.del(keys);
    await c.quit();
    process.off('unhandledRejection', onFailure);
    process.off('uncaughtException', onFailure);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const signIn = (password = 'password123') => request(url).post('/api/auth/login').send({ email: 'rina@redis-outage.test', password });

  it('keeps running while its live events cannot be published, and signs people in with limits counted locally', async () => {
    expect((await signIn()).status).toBe(200);
    await link.cut();
    // Live events go to the socket.io adapter, which publishes each one to Redis and drops the promise.
    ctx.realtime.toUserAndAdmin(1, 'balance', { balance: 1 });
    ctx.realtime.flush();
    const started = Date.now();
    expect((await signIn('wrong-password')).status).toBe(401);
    expect((await signIn()).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(4_500);
    // Past the client's command timeout (5 s): a publish refused by then must not end the process.
    await new Promise((r) => setTimeout(r, 6_000));
    expect(failures).toEqual([]);
  }, 20_000);

  it('counts sign-ins in Redis again once it is back', async () => {
    link = await relay(link.port);
    const c = createClient({ url: REDIS });
    await c.connect();
    try {
      const deadline = Date.now() + 10_000;
      let keys: string[] = [];
      while (keys.length === 0 && Date.now() < deadline) {
        await signIn('wrong-password');
        keys = await c.keys(`${prefix}signin*`);
        if (keys.length === 0) await new Promise((r) => setTimeout(r, 250));
      }
      expect(keys.length).toBeGreaterThan(0);
    } finally {
      await c.quit();
    }
    expect(failures).toEqual([]);
  }, 20_000);

  it('closes its Redis connections within seconds on a shutdown while Redis is away', async () => {
    await link.cut();
    const started = Date.now();
    await ctx.redis!.close();
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 20_000);
});
