/**
 * Per-row coalescing of live events. Every event carries absolute values, so when one row changes
 * faster than the interval only the newest coalescible event of that row needs to reach the
 * clients. Events that must arrive (start, stop, waiting, finished, errors) go out at once, right
 * after the row's waiting coalescible event, so the order of a row's events is never changed.
 */
export const COALESCE_MS = 250;

interface Pending {
  timer: NodeJS.Timeout;
  send: () => void;
}

export class EventCoalescer {
  private readonly lastSent = new Map<string, number>();
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly intervalMs = COALESCE_MS) {}

  /** A coalescible event: sent now, or at the end of the row's interval if a newer one doesn't replace it. */
  soft(key: string, send: () => void): void {
    const waiting = this.pending.get(key);
    if (waiting) {
      waiting.send = send;
      return;
    }
    const since = Date.now() - (this.lastSent.get(key) ?? 0);
    if (since >= this.intervalMs) {
      this.lastSent.set(key, Date.now());
      send();
      return;
    }
    const entry: Pending = {
      send,
      timer: setTimeout(() => {
        this.pending.delete(key);
        this.lastSent.set(key, Date.now());
        entry.send();
      }, this.intervalMs - since),
    };
    entry.timer.unref();
    this.pending.set(key, entry);
  }

  /** An event that must arrive: sent now, after the row's waiting coalescible event (if any). */
  hard(key: string, send: () => void): void {
    this.sendWaiting(key);
    this.lastSent.set(key, Date.now());
    send();
  }

  /** Forgets a row (its loop ended): a waiting coalescible event is sent now rather than lost. */
  flush(key: string): void {
    this.sendWaiting(key);
    this.lastSent.delete(key);
  }

  private sendWaiting(key: string): void {
    const waiting = this.pending.get(key);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.pending.delete(key);
    waiting.send();
  }

  close(): void {
    for (const [, p] of this.pending) clearTimeout(p.timer);
    this.pending.clear();
    this.lastSent.clear();
  }
}
