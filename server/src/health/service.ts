import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { dialectOf, rawGet } from '../db/raw';
import { appVersion } from '../lib/build-info';
import { engineFor } from '../engine/engine';
import { leaseKeeper } from '../cluster/keeper';

/** How long the database may take to answer before the node reports itself unhealthy. */
const DB_TIMEOUT_MS = 2_000;

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface Health {
  status: 'ok' | 'degraded';
  version: string;
  uptime: number;
  db: { ok: boolean; dialect: 'sqlite' | 'postgres'; latencyMs: number; error?: string };
  /** Only when REDIS_URL is set. */
  redis?: Check;
  /** The blast engine on this node: account loops running here, and the leases it holds (PostgreSQL). */
  engine: { accountsRunning: number; leasesHeld: number };
}

interface Check {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

const ms = (started: number) => Math.round((performance.now() - started) * 10) / 10;

/** The database answers a trivial query in time. */
async function checkDb(ctx: AppContext): Promise<Check> {
  const started = performance.now();
  try {
    await within(DB_TIMEOUT_MS, rawGet(ctx.db, sql`SELECT 1 AS ok`));
    return { ok: true, latencyMs: ms(started) };
  } catch (err) {
    ctx.log('health: the database does not answer', err);
    return { ok: false, latencyMs: Math.round(performance.now() - started), error: 'database unreachable' };
  }
}

/**
 * Redis answers a PING in time. A client that is not connected fails at once: its commands would wait in
 * the offline queue until Redis is back.
 */
async function checkRedis(ctx: AppContext): Promise<Check | undefined> {
  const link = ctx.redis;
  if (!link) return undefined;
  const started = performance.now();
  try {
    if (!link.pub.isReady) throw new Error('not connected');
    await within(DB_TIMEOUT_MS, link.pub.ping());
    return { ok: true, latencyMs: ms(started) };
  } catch {
    return { ok: false, latencyMs: Math.round(performance.now() - started), error: 'redis unreachable' };
  }
}

/** For load balancers (GET /api/health/ready): whether the database and a configured Redis answer. */
export async function readiness(ctx: AppContext): Promise<{ ready: boolean; db: boolean; redis?: boolean }> {
  const [db, redis] = await Promise.all([checkDb(ctx), checkRedis(ctx)]);
  return { ready: db.ok && (redis?.ok ?? true), db: db.ok, ...(redis ? { redis: redis.ok } : {}) };
}

/** For load balancers: the store answers a trivial query in time. Errors are named, never detailed. */
export async function health(ctx: AppContext): Promise<Health> {
  const [dbCheck, redis] = await Promise.all([checkDb(ctx), checkRedis(ctx)]);
  const db = { ok: dbCheck.ok, dialect: dialectOf(ctx.db), latencyMs: dbCheck.latencyMs, ...(dbCheck.error ? { error: dbCheck.error } : {}) };
  const engine = { accountsRunning: engineFor(ctx).running, leasesHeld: leaseKeeper(ctx).held };
  const ok = db.ok && (redis?.ok ?? true);
  return { status: ok ? 'ok' : 'degraded', version: appVersion(), uptime: Math.round(process.uptime()), db, ...(redis ? { redis } : {}), engine };
}
