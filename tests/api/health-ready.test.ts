import crypto from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers';
import { closeDb } from '../../server/src/db/client';
import { connectRedis } from '../../server/src/cluster/redis';
import { createLogger } from '../../server/src/lib/logger';
import { redisUnreachable, REDIS } from './cluster-fixtures';

const down = await redisUnreachable();
if (down) console.warn(`\n!!! health/ready Redis tests SKIPPED: ${REDIS} does not answer (${down}) !!!\n`);

/** A TCP relay to the tests' Redis on a fixed port, which can be cut (every connection dropped) and opened again. */
function relay() {
  const target = new URL(REDIS);
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const open = () =>
    new Promise<number>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 6379), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => undefined);
          s.on('close', () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve(port);
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      server?.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return { open, cut };
}

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

let t: TestApp | null = null;
afterEach(async () => {
  await t?.ctx.redis?.close();
  await t?.close().catch(() => undefined);
  t = null;
});

describe('GET /api/health/ready and the engine and Redis in /api/health', () => {
  it('answers 200 while the database answers, and names the engine on this node in /api/health', async () => {
    t = await startTestApp();
    const res = await t.http.get('/api/health/ready');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ ready: true, db: true });
    const health = await t.http.get('/api/health').expect(200);
    expect(health.body.engine).toEqual({ accountsRunning: 0, leasesHeld: 0 });
    expect(health.body).not.toHaveProperty('redis');
  });

  it('answers 503 while the database is away', async () => {
    t = await startTestApp();
    await closeDb(t.ctx.db);
    const res = await t.http.get('/api/health/ready');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ ready: false, db: false });
  });

  it.skipIf(down !== null)('answers 503 while a configured Redis is away, logs the outage and its end, and 200 once it is back', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'info', format: 'json', destination: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) } });
    const link = relay();
    const port = await link.open();
    const url = `redis://127.0.0.1:${port}`;
    t = await startTestApp({ redisUrl: url, redisPrefix: `i31b-test-${crypto.randomBytes(3).toString('hex')}:` });
    t.ctx.redis = await connectRedis(url, t.ctx.config.redisPrefix, 5_000, logger);

    expect((await t.http.get('/api/health/ready')).body).toEqual({ ready: true, db: true, redis: true });
    const up = await t.http.get('/api/health').expect(200);
    expect(up.body.redis).toMatchObject({ ok: true });
    expect(up.body.redis.latencyMs).toBeGreaterThanOrEqual(0);

    await link.cut();
    await until(async () => (await t!.http.get('/api/health/ready')).status === 503);
    expect((await t.http.get('/api/health/ready')).body).toEqual({ ready: false, db: true, redis: false });
    const away = await t.http.get('/api/health').expect(503);
    expect(away.body.redis).toMatchObject({ ok: false, error: 'redis unreachable' });
    const lost = lines.filter((l) => String(l.msg).startsWith('Redis is away'));
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ level: 'warn', redis: url });

    await link.open();
    await until(async () => (await t!.http.get('/api/health/ready')).status === 200, 15_000);
    const back = lines.filter((l) => l.msg === 'Redis is back');
    expect(back).toHaveLength(1);
    expect(back[0]!.downMs).toBeGreaterThan(0);
    await link.cut();
  });
});
