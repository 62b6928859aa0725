import type { RedisClientType } from 'redis';
import type { createAdapter } from '@socket.io/redis-adapter';
import type { Store } from 'express-rate-limit';
import type { RedisReply } from 'rate-limit-redis';
import { maskedUrl, StartFailure } from '../lib/errors';

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

/**
 * Connects to Redis. The client, the socket.io adapter and the rate-limit store load here, so a
 * single node without Redis never loads them.
 */
export async function connectRedis(url: string, prefix = 'blast:', startTimeoutMs = 10_000): Promise<RedisLink> {
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
    const why = lastError instanceof Error ? lastError.message || lastError.name : 'no answer';
    throw new StartFailure(`Cannot connect to Redis at ${maskedUrl(url)} within ${startTimeoutMs / 1000} s (${why}). Check REDIS_URL, or leave it unset on a single node.`);
  }
  return {
    pub,
    sub,
    prefix,
    // A node that does not answer a cluster-wide question (who is connected) within a second is left out.
    socketAdapter: () => createAdapter(pub, sub, { key: `${prefix}socket.io`, requestsTimeout: 1000 }),
    limitStore: (name) => new RedisStore({ prefix: `${prefix}${name}`, sendCommand: (...args: string[]) => pub.sendCommand(args) as Promise<RedisReply> }),
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
