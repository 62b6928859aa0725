import type { Config } from './config';
import type { Db } from './db/client';
import { RealtimeHub } from './realtime/hub';
import { LoginLimiter } from './auth/limiter';

/** Everything a route or service needs, built once per process (or per test). */
export interface AppContext {
  config: Config;
  db: Db;
  realtime: RealtimeHub;
  loginLimiter: LoginLimiter;
  log: (msg: string, err?: unknown) => void;
}

export function createContext(config: Config, db: Db, log: AppContext['log'] = defaultLog): AppContext {
  return { config, db, realtime: new RealtimeHub(), loginLimiter: new LoginLimiter(), log };
}

function defaultLog(msg: string, err?: unknown): void {
  if (err === undefined) console.log(msg);
  else console.error(msg, err);
}
