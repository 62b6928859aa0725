import type { Db } from './client';
import type { EngineStore } from '../engine/store';
import { isPostgres } from './postgres';
import { gate } from './gate';
import { sqliteEngineStore, sqliteIsOpen } from './sqlite/engine';
import { postgresEngineStore } from './pg/engine';

/**
 * The dialect-specific stores behind the areas' interfaces, chosen by the database handle. This is the
 * one place that picks SQLite or PostgreSQL code; the areas call the interfaces.
 */
const engineStores = new WeakMap<object, EngineStore>();

export function engineStoreOf(db: Db): EngineStore {
  let store = engineStores.get(db);
  if (!store) {
    store = isPostgres(db) ? postgresEngineStore(db) : sqliteEngineStore(db);
    engineStores.set(db, store);
  }
  return store;
}

/** False once the database behind the handle is closed (work finishing then writes nothing). */
export function isStoreOpen(db: Db): boolean {
  if (isPostgres(db)) return (db.$client as unknown as { ended?: boolean }).ended !== true;
  return sqliteIsOpen(db);
}

/** For the metrics: connections in use and queries waiting for one (PostgreSQL's pool; SQLite's one connection and its gate). */
export function connectionUsage(db: Db): { inUse: number; waiting: number } {
  if (isPostgres(db)) return { inUse: db.$client.totalCount - db.$client.idleCount, waiting: db.$client.waitingCount };
  return gate.usage();
}
