import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { dialectOf, rawGet } from '../db/raw';
import { appVersion } from '../lib/build-info';

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
}

/** For load balancers: the store answers a trivial query in time. Errors are named, never detailed. */
export async function health(ctx: AppContext): Promise<Health> {
  const started = performance.now();
  let db: Health['db'];
  try {
    await within(DB_TIMEOUT_MS, rawGet(ctx.db, sql`SELECT 1 AS ok`));
    db = { ok: true, dialect: dialectOf(ctx.db), latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (err) {
    ctx.log('health: the database does not answer', err);
    db = { ok: false, dialect: dialectOf(ctx.db), latencyMs: Math.round(performance.now() - started), error: 'database unreachable' };
  }
  return { status: db.ok ? 'ok' : 'degraded', version: appVersion(), uptime: Math.round(process.uptime()), db };
}
