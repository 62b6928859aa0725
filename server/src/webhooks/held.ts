import { inArray } from 'drizzle-orm';
import type { AppContext } from '../context';
import { messageLogs, whatsapps } from '../db/schema';
import type { CloudStatus } from './schema';

/** How long a status for a message id not in the log yet is kept, from its arrival. */
export const HOLD_MS = 5 * 60_000;
/** Most statuses held at once; beyond it new ones are dropped (and the drop logged). */
export const HOLD_LIMIT = 10_000;
const SWEEP_MS = 1_000;

interface Held {
  status: CloudStatus;
  until: number;
}

/**
 * Statuses whose message id is not in the log yet. Meta's status webhook travels apart from the send's
 * answer: a 'delivered' can arrive before Graph's answer reaches the gateway, or before the engine's
 * tick commits the log row, and Meta does not send a status it saw answered 200 again. Such a status of
 * a recent send to one of the linked business numbers is kept in memory and applied once the row is
 * there (looked up every second while any is held, on whichever node holds it, since the log is
 * shared), or dropped after HOLD_MS: a status of another app's or the Blaster's message never gets a row.
 */
export class HeldStatuses {
  private readonly held = new Map<string, Held[]>();
  private count = 0;
  private timer: NodeJS.Timeout | null = null;
  /** The sweep running now, if any. */
  private sweeping: Promise<void> | null = null;
  private dropLogged = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly apply: (statuses: CloudStatus[]) => Promise<void>,
  ) {}

  get size(): number {
    return this.count;
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
    for (const status of recent) {
      if (this.count >= HOLD_LIMIT) {
        if (!this.dropLogged) this.ctx.log(`More than ${HOLD_LIMIT} Cloud API statuses wait for their message; newer ones are dropped`);
        this.dropLogged = true;
        break;
      }
      const list = this.held.get(status.id) ?? [];
      list.push({ status, until: now + HOLD_MS });
      this.held.set(status.id, list);
      this.count += 1;
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.count === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sweep().finally(() => this.schedule());
    }, SWEEP_MS);
    this.timer.unref();
  }

  /**
   * Applies the held statuses whose row is in the log now, in arrival order, and forgets expired ones. A
   * call while a sweep runs waits for it and then sweeps again (a row may have come meanwhile). When the
   * database fails, nothing is forgotten but what has expired: the statuses stay held for the next sweep.
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
    const taken = new Map<string, Held[]>();
    try {
      const ids = [...this.held.keys()];
      const found = new Set<string>();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await this.ctx.db
          .select({ id: messageLogs.waMessageId })
          .from(messageLogs)
          .where(inArray(messageLogs.waMessageId, ids.slice(i, i + 500)));
        for (const r of rows) if (r.id) found.add(r.id);
      }
      const ready: CloudStatus[] = [];
      for (const [id, list] of this.held) {
        if (found.has(id)) {
          ready.push(...list.map((h) => h.status));
          taken.set(id, list);
          this.forget(id, list.length);
        } else {
          const kept = list.filter((h) => h.until > now);
          if (kept.length) this.held.set(id, kept);
          this.forget(id, list.length - kept.length, kept.length > 0);
        }
      }
      if (ready.length) await this.apply(ready);
    } catch (err) {
      // The database is failing (or the node is closing): what was taken to apply is held again, to be
      // applied by a later sweep or to expire; statuses apply once however often they are applied.
      this.ctx.log('Applying held Cloud API statuses failed; they stay held', err);
      for (const [id, list] of taken) {
        const back = [...list, ...(this.held.get(id) ?? [])];
        this.held.set(id, back);
        this.count += list.length;
      }
    }
  }

  private forget(id: string, n: number, keep = false): void {
    if (!keep) this.held.delete(id);
    this.count -= n;
    if (this.count < HOLD_LIMIT) this.dropLogged = false;
  }

  /** Drops everything held (the server is closing). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.held.clear();
    this.count = 0;
  }
}
