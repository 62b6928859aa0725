import { and, asc, count, eq, exists, inArray, lte, notExists, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { one } from '../db/raw';
import { heldStatuses, messageLogs, whatsapps } from '../db/schema';
import { statusSchema, type CloudStatus } from './schema';

/** How long a status for a message id not in the log yet is kept, from its arrival. */
export const HOLD_MS = 5 * 60_000;
/** Most statuses held at once (by all nodes); beyond it new ones are dropped (and the drop logged). */
export const HOLD_LIMIT = 10_000;
const SWEEP_MS = 1_000;
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
 * A node looks every second only while it knows rows are held: from its own hold, or from finding rows
 * at start (`resume`), until a sweep finds the table empty. An idle install runs no query for it.
 */
export class HeldStatuses {
  private timer: NodeJS.Timeout | null = null;
  /** The sweep running now, if any. */
  private sweeping: Promise<void> | null = null;
  private dropLogged = false;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly apply: (statuses: CloudStatus[]) => Promise<void>,
  ) {}

  /** How many statuses are held, by every node. */
  async count(): Promise<number> {
    const row = await one(this.ctx.db.select({ n: count() }).from(heldStatuses));
    return Number(row?.n ?? 0);
  }

  /** Whether this node sweeps (it knows of held statuses). */
  get active(): boolean {
    return this.timer !== null;
  }

  /** At start: sweeps when statuses are held (left by this node before a restart, or by another node). */
  async resume(): Promise<void> {
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
    await this.ctx.db.insert(heldStatuses).values(kept.map((s) => ({ waMessageId: s.id, status: JSON.stringify(s), expiresAt })));
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
    let more = true;
    try {
      for (;;) {
        const rows = await db.select({ id: heldStatuses.id, status: heldStatuses.status }).from(heldStatuses).where(logged).orderBy(asc(heldStatuses.id)).limit(BATCH);
        if (!rows.length) break;
        const ready = rows.flatMap((r) => {
          const parsed = statusSchema.safeParse(safeJson(r.status));
          return parsed.success ? [parsed.data] : [];
        });
        if (ready.length) await this.apply(ready);
        await db.delete(heldStatuses).where(inArray(heldStatuses.id, rows.map((r) => r.id)));
        if (rows.length < BATCH) break;
      }
      await db.delete(heldStatuses).where(and(lte(heldStatuses.expiresAt, new Date(now)), notExists(db.select({ one: sql`1` }).from(messageLogs).where(eq(messageLogs.waMessageId, heldStatuses.waMessageId)))));
      more = (await one(db.select({ id: heldStatuses.id }).from(heldStatuses).limit(1))) !== undefined;
    } catch (err) {
      // The database is failing (or the node is closing): the rows stay, to be applied by a later sweep or to
      // expire.
      this.ctx.log('Applying held Cloud API statuses failed; they stay held', err);
    }
    if (more) this.schedule();
    else this.stop();
  }

  /** Stops sweeping (the server is closing); what is held stays in the store for the next start or another node. */
  close(): void {
    this.closed = true;
    this.stop();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
