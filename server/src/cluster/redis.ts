import type { RedisClientType } from 'redis';
import type { createAdapter } from '@socket.io/redis-adapter';
import { MemoryStore, type Store } from 'express-rate-limit';
import type { RedisReply } from 'rate-limit-redis';
import { maskedUrl, StartFailure } from '../lib/errors';
import type { Logger } from 'pino';
import { getLogger } from '../lib/logger';

const options = (url: string) => ({ url, socket: { connectTimeout: 3_000, reconnectStrategy: (retries: number) => Math.min(retries * 200, 3_000) } });
type Client = RedisClientType;

/**
 * The Redis connections of a node that shares live events and limits with other nodes: one to publish
 * (and for commands such as the sign-in counters), one to subscribe, as the socket.io adapter needs.
 */
export interface RedisLink {
  pub: Client;
  sub: Client;
  /** Key prefix, so several installs (or tests) can share one Redis. */
  prefix: string;
  /** The socket.io adapter that shares rooms and events through these connections. */
  socketAdapter(): ReturnType<typeof createAdapter>;
  /** A store for express-rate-limit whose counts live in Redis under `prefix` + `name`. */
  limitStore(name: string): Store;
  close(): Promise<void>;
}

/** What one link has already logged of an outage, so it says so once per outage, not per event or request. */
interface Outage {
  /** Publishes the adapter could not make while Redis was away. */
  publishFailing: boolean;
  /** The limits count in this node's memory because Redis is away. */
  limitsLocal: boolean;
}

/**
 * The publishing client as the socket.io adapter sees it. The adapter drops the promise of every publish
 * (a broadcast, a request to the other nodes), so with Redis away each one's rejection went unhandled and
 * ended the process. Here a failed publish is logged and resolves to 0 receivers: the live event is lost
 * for the other nodes, as the adapter documents, and the node goes on.
 */
function publisherFor(pub: Client, outage: Outage): Client {
  return new Proxy(pub, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || prop === 'constructor') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (prop !== 'publish' && prop !== 'sPublish' && prop !== 'PUBLISH' && prop !== 'SPUBLISH') return fn.bind(target);
      return (...args: unknown[]) =>
        Promise.resolve(fn.apply(target, args)).then(
          (n) => {
            outage.publishFailing = false;
            return n;
          },
          (err: unknown) => {
            if (!outage.publishFailing) getLogger().warn({ err: err instanceof Error ? err.message || err.constructor.name : String(err) }, 'Redis publish failed: live events do not reach the other nodes until Redis is back');
            outage.publishFailing = true;
            return 0;
          },
        );
    },
  });
}

/**
 * Closes a client: QUIT when it is connected (2 s at most), else at once. A QUIT sent while Redis is away
 * waits in the offline queue for ever, so a SIGTERM during an outage never finished its shutdown (and a
 * process with nothing else to do ended without closing its database).
 */
async function end(c: Client): Promise<void> {
  if (c.isReady) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([c.quit().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, 2_000)))]);
    clearTimeout(timer);
  }
  if (c.isOpen) c.destroy();
}

/**
 * A limit store counting in Redis while it answers, and in this node's memory while it does not: without
 * it every sign-in waited for the command timeout and failed (500) for as long as Redis was away, so no
 * one could sign in. During an outage the limits hold per node, as on a single node.
 */
function withLocalFallback(pub: Client, shared: Store, outage: Outage): Store {
  const local = new MemoryStore();
  const either = async <T>(use: (s: Store) => Promise<T> | T): Promise<T> => {
    if (pub.isReady) {
      try {
        const out = await use(shared);
        outage.limitsLocal = false;
        return out;
      } catch (err) {
        if (!pub.isReady) return use(local);
        throw err;
      }
    }
    if (!outage.limitsLocal) getLogger().warn('Redis is away: sign-in and sign-up limits count on this node until it is back');
    outage.limitsLocal = true;
    return use(local);
  };
  return {
    prefix: shared.prefix,
    localKeys: false,
    init(options) {
      shared.init?.(options);
      local.init(options);
    },
    get: (key) => either((s) => s.get?.(key)),
    increment: (key) => either((s) => s.increment(key)),
    decrement: (key) => either((s) => s.decrement(key)),
    resetKey: (key) => either((s) => s.resetKey(key)),
  };
}

/**
 * Logs an outage once when the connection drops (warn) and once when it is back (info, with how long it
 * lasted), however many reconnection attempts and failed commands lie between: an operator sees both ends.
 */
function watchConnection(c: Client, url: string, logger: Logger): void {
  let downSince: number | null = null;
  const lost = (err?: unknown) => {
    if (downSince !== null) return;
    downSince = Date.now();
    const why = err instanceof Error ? err.message || err.constructor.name : 'connection closed';
    logger.warn({ redis: maskedUrl(url), reason: why }, 'Redis is away: retrying; live events and limits stay on this node meanwhile');
  };
  c.on('error', (err: unknown) => lost(err));
  c.on('reconnecting', () => lost());
  c.on('ready', () => {
    if (downSince === null) return;
    logger.info({ redis: maskedUrl(url), downMs: Date.now() - downSince }, 'Redis is back');
    downSince = null;
  });
}

/**
 * Connects to Redis. The client, the socket.io adapter and the rate-limit store load here, so a
 * single node without Redis never loads them.
 */
export async function connectRedis(url: string, prefix = 'blast:', startTimeoutMs = 10_000, logger: Logger = getLogger()): Promise<RedisLink> {
  const [{ createClient }, { createAdapter }, { RedisStore }] = await Promise.all([import('redis'), import('@socket.io/redis-adapter'), import('rate-limit-redis')]);
  const pub: Client = createClient(options(url));
  const sub: Client = createClient(options(url));
  // Errors surface through failed commands and the health check; an unhandled 'error' event would crash.
  let lastError: unknown = null;
  pub.on('error', (err: unknown) => (lastError = err));
  sub.on('error', (err: unknown) => (lastError = err));
  // The client retries for ever: a start on a Redis that does not answer stops with the reason instead of waiting silently.
  const connected = Promise.all([pub.connect(), sub.connect()]);
  connected.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), startTimeoutMs)));
  const ok = await Promise.race([connected.then(() => true), gaveUp]);
  clearTimeout(timer);
  if (!ok) {
    await Promise.allSettled([pub.destroy(), sub.destroy()]);
    const why = lastError instanceof Error ? lastError.message || lastError.constructor.name : 'no answer';
    throw new StartFailure(`Cannot connect to Redis at ${maskedUrl(url)} within ${startTimeoutMs / 1000} s (${why}). Check REDIS_URL, or leave it unset on a single node.`);
  }
  const outage: Outage = { publishFailing: false, limitsLocal: false };
  watchConnection(pub, url, logger);
  return {
    pub,
    sub,
    prefix,
    // A node that does not answer a cluster-wide question (who is connected) within a second is left out.
    socketAdapter: () => createAdapter(publisherFor(pub, outage), sub, { key: `${prefix}socket.io`, requestsTimeout: 1000 }),
    limitStore: (name) => withLocalFallback(pub, new RedisStore({ prefix: `${prefix}${name}`, sendCommand: (...args: string[]) => pub.sendCommand(args) as Promise<RedisReply> }), outage),
    async close() {
      await Promise.allSettled([end(pub), end(sub)]);
    },
  };
}
