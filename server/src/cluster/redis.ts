import { createClient } from 'redis';

const newClient = (url: string) =>
  createClient({ url, socket: { connectTimeout: 3_000, reconnectStrategy: (retries: number) => Math.min(retries * 200, 3_000) } });
type Client = ReturnType<typeof newClient>;

/**
 * The Redis connections of a node that shares live events and limits with other nodes: one to publish
 * (and for commands such as the sign-in counters), one to subscribe, as the socket.io adapter needs.
 */
export interface RedisLink {
  pub: Client;
  sub: Client;
  /** Key prefix, so several installs (or tests) can share one Redis. */
  prefix: string;
  close(): Promise<void>;
}

export async function connectRedis(url: string, prefix = 'blast:'): Promise<RedisLink> {
  const pub = newClient(url);
  const sub = newClient(url);
  // Errors surface through failed commands and the health check; an unhandled 'error' event would crash.
  pub.on('error', () => undefined);
  sub.on('error', () => undefined);
  await Promise.all([pub.connect(), sub.connect()]);
  return {
    pub,
    sub,
    prefix,
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
