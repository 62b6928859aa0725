import { AsyncLocalStorage } from 'node:async_hooks';
import { SQLiteSelectBase } from 'drizzle-orm/sqlite-core/query-builders/select';
import { SQLiteInsertBase } from 'drizzle-orm/sqlite-core/query-builders/insert';
import { SQLiteUpdateBase } from 'drizzle-orm/sqlite-core/query-builders/update';
import { SQLiteDeleteBase } from 'drizzle-orm/sqlite-core/query-builders/delete';
import { SQLiteRelationalQuery } from 'drizzle-orm/sqlite-core/query-builders/query';

/**
 * SQLite has one connection per process, so an asynchronous transaction owns it from BEGIN to COMMIT.
 * While one is open, a query from any other caller (another request, the engine) waits here until it
 * ends instead of running inside it; queries of the transaction itself (same async context) go ahead.
 * With no transaction open a query runs at once, as before.
 */
class SqliteGate {
  private readonly context = new AsyncLocalStorage<symbol>();
  private owner: symbol | null = null;
  private waiters: Array<() => void> = [];

  /** For the metrics: the one connection in use by a transaction (0 or 1) and the callers waiting for it. */
  usage(): { inUse: number; waiting: number } {
    return { inUse: this.owner === null ? 0 : 1, waiting: this.waiters.length };
  }

  /** True when the caller runs inside the open transaction. */
  mine(): boolean {
    return this.owner !== null && this.context.getStore() === this.owner;
  }

  /** True when another caller's transaction holds the connection. */
  blocked(): boolean {
    return this.owner !== null && this.context.getStore() !== this.owner;
  }

  /**
   * Resolves when the connection is free for this caller. Another transaction may begin between that
   * and the caller's continuation: use `whenFree` to run synchronous work, which checks and runs in one step.
   */
  async free(): Promise<void> {
    while (this.blocked()) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Runs `fn` as the connection's only user (one transaction at a time, FIFO). */
  async hold<T>(fn: () => Promise<T>): Promise<T> {
    await this.free();
    while (this.owner !== null) await new Promise<void>((resolve) => this.waiters.push(resolve));
    const token = Symbol('transaction');
    this.owner = token;
    try {
      return await this.context.run(token, fn);
    } finally {
      this.owner = null;
      const waiting = this.waiters;
      this.waiters = [];
      for (const wake of waiting) wake();
    }
  }

  /** Runs synchronous `fn` at a moment no other caller's transaction holds the connection. */
  async whenFree<T>(fn: () => T): Promise<T> {
    while (this.blocked()) await this.free();
    return fn();
  }

  /** For synchronous transactions: they must never start inside someone else's open one. */
  assertFree(): void {
    if (this.blocked()) throw new Error('A synchronous SQLite transaction cannot start while an asynchronous one is open');
  }
}

export const gate = new SqliteGate();

let installed = false;

/**
 * Makes every awaited Drizzle query on SQLite pass the gate. Drizzle's query builders run through their
 * `execute()` when awaited; the synchronous `.get()/.all()/.run()` bypass it and are for the SQLite
 * dialect code only, which runs them through `gate.whenFree()`.
 */
export function installSqliteGate(): void {
  if (installed) return;
  installed = true;
  for (const cls of [SQLiteSelectBase, SQLiteInsertBase, SQLiteUpdateBase, SQLiteDeleteBase, SQLiteRelationalQuery] as unknown as Array<{ prototype: { execute: (...args: unknown[]) => Promise<unknown> } }>) {
    const original = cls.prototype.execute;
    // The check and the query run in the same step: after a wait the check is made again, since
    // another transaction may have begun between the wake-up and this continuation.
    cls.prototype.execute = function gatedExecute(this: unknown, ...args: unknown[]): Promise<unknown> {
      if (!gate.blocked()) return original.apply(this, args);
      return gate.free().then(() => gatedExecute.apply(this, args));
    };
  }
}
