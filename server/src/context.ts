import type { Config } from './config';
import type { Db } from './db/client';
import { RealtimeHub } from './realtime/hub';
import { createGateway } from './gateway';
import type { Gateway } from './gateway/types';
import type { RedisLink } from './cluster/redis';
import { getLogger, logFunction } from './lib/logger';

/** Everything a route or service needs, built once per process (or per test). */
export interface AppContext {
  config: Config;
  db: Db;
  realtime: RealtimeHub;
  /** The one boundary to WhatsApp (the simulator unless configured otherwise). */
  gateway: Gateway;
  /** One log line: info, or error with `err` (written through the process's pino logger by default). */
  log: (msg: string, err?: unknown, fields?: Record<string, unknown>) => void;
  /** Set when REDIS_URL is: live events and sign-in limits are shared with the other nodes. */
  redis?: RedisLink | null;
}

export function createContext(config: Config, db: Db, log: AppContext['log'] = defaultLog): AppContext {
  return {
    config,
    db,
    realtime: new RealtimeHub(),
    gateway: createGateway(config, log),
    log,
  };
}

function defaultLog(msg: string, err?: unknown, fields?: Record<string, unknown>): void {
  logFunction(getLogger())(msg, err, fields);
}
