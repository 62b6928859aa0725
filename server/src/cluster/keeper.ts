import type { AppContext } from '../context';
import { isPostgres } from '../db/postgres';
import { isStoreOpen } from '../db/stores';
import { acquireLease, LEASE_TTL_MS, newNodeId, releaseAllLeases, releaseLease, renewLeases, type LeaseKind } from './leases';

/** How often a node renews its leases and looks for work nobody holds (well inside LEASE_TTL_MS). */
export const SWEEP_MS = 3_000;

/** Called after every renewal with the leases this node still holds ("kind:id"). */
export type SweepListener = (held: Set<string>) => Promise<void>;

export const leaseKey = (kind: LeaseKind, id: number) => `${kind}:${id}`;

/**
 * This node's leases on the work it runs. On PostgreSQL several nodes share one database, so an
 * account's send loop or a generator/validator job runs on the node that holds its lease: the
 * lease is taken before the work starts, renewed every SWEEP_MS, given back when the work ends, and
 * lets other nodes take the work over once it expires (a node that died). On the embedded SQLite
 * store there is one process, which owns everything: taking a lease always succeeds and writes
 * nothing.
 */
export class LeaseKeeper {
  readonly node = newNodeId();
  readonly clustered: boolean;
  /** Leases this node held at its last renewal (0 on SQLite, where none are written). */
  held = 0;
  private readonly listeners: SweepListener[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly ctx: AppContext) {
    this.clustered = isPostgres(ctx.db);
  }

  /** Takes (or renews) the lease on one piece of work; true when this node owns it now. */
  async take(kind: LeaseKind, id: number): Promise<boolean> {
    if (!this.clustered) return true;
    if (this.stopped || !isStoreOpen(this.ctx.db)) return false;
    return acquireLease(this.ctx.db, kind, id, this.node);
  }

  /** Gives one piece of work back. */
  async give(kind: LeaseKind, id: number): Promise<void> {
    if (!this.clustered || !isStoreOpen(this.ctx.db)) return;
    await releaseLease(this.ctx.db, kind, id, this.node);
  }

  /** Runs `listener` after each renewal; the timer starts with the first listener. */
  onSweep(listener: SweepListener): void {
    this.listeners.push(listener);
    if (!this.clustered || this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  /** One renewal and one pass of every listener (never two at once); also callable at start-up. */
  sweep(): Promise<void> {
    if (!this.clustered || this.stopped) return Promise.resolve();
    this.sweeping ??= (async () => {
      try {
        if (!isStoreOpen(this.ctx.db)) return;
        const held = await renewLeases(this.ctx.db, this.node, LEASE_TTL_MS);
        this.held = held.size;
        for (const listener of this.listeners) {
          if (this.stopped) return;
          await listener(held);
        }
      } catch (err) {
        if (!this.stopped) this.ctx.log('Renewing leases failed', err);
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }

  /** Stops renewing; with `release`, gives every lease back so other nodes resume the work at once. */
  async stop(release: boolean): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
    if (release && this.clustered && isStoreOpen(this.ctx.db)) await releaseAllLeases(this.ctx.db, this.node);
  }
}

const keepers = new WeakMap<AppContext, LeaseKeeper>();

/** The lease keeper of an app (one per AppContext, i.e. per node). */
export function leaseKeeper(ctx: AppContext): LeaseKeeper {
  let keeper = keepers.get(ctx);
  if (!keeper) {
    keeper = new LeaseKeeper(ctx);
    keepers.set(ctx, keeper);
  }
  return keeper;
}
