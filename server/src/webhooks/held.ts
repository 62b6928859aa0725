import { and, asc, count, eq, exists, inArray, lte, not, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { one } from '../db/raw';
import { heldStatuses, messageLogs, whatsapps } from '../db/schema';
import { statusSchema, type CloudStatus } from './schema';

/** How long a status for a message id not in the log yet is kept, from its arrival. */
export const HOLD_MS = 5 * 60_000;
/** Most statuses held at once (by all nodes); beyond it new ones are dropped (and the drop logged). */
export const HOLD_LIMIT = 10_000;
const SWEEP_MS = 1_000;
/** How often a node not sweeping looks whether another node left statuses held (one indexed row read). */
export const LOOK_MS = 30_000;
/** Held statuses applied per query and apply. */
const BATCH = 500;

/**
 * Statuses whose message id is not in the log yet. Meta's status webhook travels apart from the send's
 * answer: a 'delivered' can arrive before Graph's answer reaches the gateway, or before the engine's
 * tick commits the log row, and Meta does not send a status it saw answered 200 again. Such a status of
 * a recent send to one of the linked business numbers is kept in the `held_statuses` table and applied
 * once the row is there, or deleted after HOLD_MS: a status of another app's or the Blaster's message
 * never gets a row. Being in the store, a held status outlives a restart and any node may apply it
 * (applying is idempotent: a status moves a row forward only and pays once, in its money transaction).
 *
 * A node sweeps every second only while it knows rows are held: from its own hold, or from finding rows
 * at start or in its look every LOOK_MS (`resume`), until a sweep finds the table empty.
 */
export class HeldStatuses {
  private timer: NodeJS.Timeout | null = null;
  /** The sweep running now, if any. */
  private sweeping: Promise<void> | null = null;
  private dropLogged = false;
  private closed = false;
  /** Holds written by this node; a sweep that saw none come in while it ran may stop the timer. */
  private holds = 0;
  /** A batch failed: rows are applied one by one until a sweep gets through them all. */
  private oneByOne = false;
  private look: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly apply: (statuses: HeldStatus[]) => Promise<void>,
    private readonly lookMs = LOOK_MS,
  ) {}

  /** How many statuses are held, by every node. */
  async count(): Promise<number> {
    const row = await one(this.ctx.db.select({ n: count() }).from(heldStatuses));
    return Number(row?.n ?? 0);
  }

  /** Whether this node sweeps (it knows of held statuses), or a sweep is running now. */
  get active(): boolean {
    return this.timer !== null || this.sweeping !== null;
  }

  /**
   * At start, then every LOOK_MS while this node does not sweep: sweeps when statuses are held (left by
   * this node before a restart, or by another node, which may have gone for good).
   */
  async resume(): Promise<void> {
    if (!this.look && !this.closed) {
      this.look = setInterval(() => {
        if (this.timer || this.sweeping) return;
        void this.lookOnce().catch((err: unknown) => this.ctx.log('Looking for held Cloud API statuses failed', err));
      }, this.lookMs);
      this.look.unref();
    }
    await this.lookOnce();
  }

  private async lookOnce(): Promise<void> {
    const any = await one(this.ctx.db.select({ id: heldStatuses.id }).from(heldStatuses).limit(1));
    if (any) this.schedule();
  }

  /** Keeps the statuses of a recent send to a linked business number; others are left alone. */
  async hold(phoneNumberId: string | null, statuses: CloudStatus[], now = Date.now()): Promise<void> {
    const recent = statuses.filter((s) => {
      const seconds = Number(s.timestamp);
      return !Number.isFinite(seconds) || seconds <= 0 || now - seconds * 1000 <= HOLD_MS;
    });
    if (!recent.length || !phoneNumberId) return;
    const ours = await this.ctx.db.select({ id: whatsapps.id }).from(whatsapps).where(inArray(whatsapps.cloudPhoneNumberId, [phoneNumberId])).limit(1);
    if (!ours.length) return;
    // Nodes holding at the same moment may pass the limit by a few: it bounds the table, not exactly.
    const room = Math.max(0, HOLD_LIMIT - (await this.count()));
    const kept = recent.slice(0, room);
    if (kept.length < recent.length) {
      if (!this.dropLogged) this.ctx.log(`More than ${HOLD_LIMIT} Cloud API statuses wait for their message; newer ones are dropped`);
      this.dropLogged = true;
    } else {
      this.dropLogged = false;
    }
    if (!kept.length) return;
    const expiresAt = new Date(now + HOLD_MS);
    // The business number the body named goes with the status: once the row is there, it must be its sender's.
    await this.ctx.db.insert(heldStatuses).values(kept.map((s) => ({ waMessageId: s.id, status: JSON.stringify({ ...s, [FROM]: phoneNumberId }), expiresAt })));
    this.holds += 1;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sweep();
    }, SWEEP_MS);
    this.timer.unref();
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Applies the held statuses whose row is in the log now, in arrival order, then deletes them, and deletes
   * the expired ones no row came for. A call while a sweep runs waits for it and then sweeps again (a row may
   * have come meanwhile). When the database fails, nothing is deleted: the statuses stay held for the next
   * sweep (those already applied apply once however often they are applied). The timer goes on while rows
   * are held, and stops once none is.
   */
  async sweep(now = Date.now()): Promise<void> {
    while (this.sweeping) await this.sweeping;
    const run = this.sweepOnce(now);
    this.sweeping = run;
    try {
      await run;
    } finally {
      if (this.sweeping === run) this.sweeping = null;
    }
  }

  private async sweepOnce(now: number): Promise<void> {
    const { db } = this.ctx;
    const logged = exists(db.select({ one: sql`1` }).from(messageLogs).where(eq(messageLogs.waMessageId, heldStatuses.waMessageId)));
    const holdsBefore = this.holds;
    let more = true;
    try {
      for (;;) {
        const rows = await db
          .select({ id: heldStatuses.id, status: heldStatuses.status, expiresAt: heldStatuses.expiresAt })
          .from(heldStatuses)
          .where(logged)
          .orderBy(asc(heldStatuses.id))
          .limit(BATCH);
        if (!rows.length) break;
        const done = await this.applyRows(rows, now);
        if (done.length) await db.delete(heldStatuses).where(inArray(heldStatuses.id, done));
        // A row that could not be applied stays for the next sweep, and so do the rows after it.
        if (done.length < rows.length || rows.length < BATCH) break;
      }
      await db.delete(heldStatuses).where(and(lte(heldStatuses.expiresAt, new Date(now)), not(logged)));
      more = (await one(db.select({ id: heldStatuses.id }).from(heldStatuses).limit(1))) !== undefined;
    } catch (err) {
      // The database is failing (or the node is closing): the rows stay, to be applied by a later sweep or to
      // expire.
      this.ctx.log('Applying held Cloud API statuses failed; they stay held', err);
    }
    // A hold written while this sweep ran set its own timer, which stays (this sweep may not have seen it).
    if (more) this.schedule();
    else if (this.holds === holdsBefore) this.stop();
  }

  /**
   * Applies a batch of held rows in order and answers the ids done with. After a batch failed (the
   * database away, or one status that cannot be applied), the next sweeps apply rows one by one, up to the
   * first that fails: that row stays held until its expiry, then it is given up (logged), so one status
   * that cannot be applied does not hold the others back for good. Rows that are not a status are dropped.
   */
  private async applyRows(rows: Array<{ id: number; status: string; expiresAt: Date }>, now: number): Promise<number[]> {
    const parsed = rows.map((r) => ({ id: r.id, expiresAt: r.expiresAt, status: heldOf(safeJson(r.status)) }));
    if (!this.oneByOne) {
      const ready = parsed.flatMap((r) => (r.status.success ? [r.status.data] : []));
      try {
        if (ready.length) await this.apply(ready);
      } catch (err) {
        this.oneByOne = true;
        throw err;
      }
      return rows.map((r) => r.id);
    }
    const done: number[] = [];
    for (const r of parsed) {
      if (!r.status.success) {
        done.push(r.id);
        continue;
      }
      try {
        await this.apply([r.status.data]);
        done.push(r.id);
      } catch (err) {
        // One failure ends the sweep's work (the database may be away): at most one expired row is given up a sweep.
        if (r.expiresAt.getTime() > now) this.ctx.log('Applying held Cloud API statuses failed; they stay held', err);
        else {
          this.ctx.log(`A held Cloud API status for ${r.status.data.status.id} could not be applied before it expired; it is dropped`, err);
          done.push(r.id);
        }
        return done;
      }
    }
    this.oneByOne = false;
    return done;
  }

  /** Stops sweeping (the server is closing); what is held stays in the store for the next start or another node. */
  close(): void {
    this.closed = true;
    this.stop();
    if (this.look) clearInterval(this.look);
    this.look = null;
  }
}

/** A held status and the business number its webhook body named (absent on rows held before it was kept). */
export interface HeldStatus {
  status: CloudStatus;
  from?: string;
}

const FROM = 'held_phone_number_id';

function heldOf(value: unknown): { success: true; data: HeldStatus } | { success: false } {
  const status = statusSchema.safeParse(value);
  if (!status.success) return { success: false };
  const from = (value as Record<string, unknown>)[FROM];
  return { success: true, data: { status: status.data, ...(typeof from === 'string' ? { from } : {}) } };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
