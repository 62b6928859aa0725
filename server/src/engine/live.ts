import type { RealtimeHub } from '../realtime/hub';

/**
 * A row gets at most one flush in this window; values are absolute, so the latest ones are enough.
 * With the hub's own window per channel (BATCH_WINDOW_MS, 250 ms) after it, a count event reaches the
 * socket within COALESCE_MS + FLUSH_EVERY_MS + 250 ms = 425 ms.
 */
export const COALESCE_MS = 150;
const FLUSH_EVERY_MS = 25;

/** Events that end a run: sent at once, after the row's pending counts. */
const FINAL_EVENTS = new Set(['stop', 'idle', 'finished', 'error_blast', 'suspended']);
const COUNT_EVENTS = new Set(['count_success', 'count_fail', 'count_synced']);

type Route = { kind: 'account'; userId: number } | { kind: 'target' };

interface PendingRow {
  route: Route;
  /** Every field the row's events carried, later values winning (receiver blocks merged too). */
  data: Record<string, unknown>;
  /** The latest count event (count_synced when both counters moved) and the latest other event. */
  count: Part | null;
  state: Part | null;
  /**
   * A send's start ('progressing') that a later state event of the same window replaced: still told,
   * before its count, with the data as it was then (a short send would otherwise never show it).
   */
  started: { seq: number; at: number; data: Record<string, unknown> } | null;
  startedData?: Record<string, unknown>;
  /** When the row's latest event happened. */
  at: number;
}

/** An event kept for the flush, and when it happened (the message's `date`). */
interface Part {
  event: string;
  seq: number;
  at: number;
}

/**
 * Live events of the blast engine, coalesced per row. A row's events merge until the next flush
 * (every 25 ms) and a row is flushed at most once per 150 ms. A flush sends at most two messages,
 * in the order they happened: the latest count event (so counters update and flash) and the latest
 * other event (sending, waiting, attempting…), both carrying the merged absolute data. Events that
 * end a run go out at once. A phone-number row gets an `in_use` message only when the value differs
 * from the one last sent (a claim and its release inside one window need none).
 */
export class LiveRows {
  private lastFlush = new Map<string, number>();
  private pending = new Map<string, PendingRow>();
  /** Phone-number rows whose last sent `in_use` was 1. */
  private shownInUse = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private seq = 0;
  /** Messages handed to the hub (for the benchmark's figures). */
  sent = 0;

  constructor(
    private readonly hub: RealtimeHub,
    private readonly windowMs = COALESCE_MS,
    /** Told of every count event of an account (its figures of the day moved). */
    private readonly onCount?: (accountId: number, userId: number) => void,
  ) {}

  /** An account-row event: to the owner's channel and 'admin', and 'client-admin' for the monitor. */
  account(accountId: number, userId: number, event: string, data: Record<string, unknown>): void {
    this.push(`a${accountId}`, { kind: 'account', userId }, event, data);
    if (COUNT_EVENTS.has(event)) this.onCount?.(accountId, userId);
  }

  /** A phone-number row event (`payload.receiver`) on 'client-admin'. */
  target(targetId: number, event: string, receiver: Record<string, unknown>): void {
    this.push(`t${targetId}`, { kind: 'target' }, event, { receiver });
  }

  private push(key: string, route: Route, event: string, data: Record<string, unknown>): void {
    const at = Date.now();
    let row = this.pending.get(key);
    if (!row) {
      row = { route, data, count: null, state: null, started: null, at };
      this.pending.set(key, row);
    } else {
      row.data = mergeData(row.data, data);
      row.route = route;
      row.at = at;
    }
    this.seq += 1;
    if (COUNT_EVENTS.has(event)) {
      const both = row.count !== null && row.count.event !== event;
      row.count = { event: both ? 'count_synced' : event, seq: this.seq, at };
    } else {
      if (row.state?.event === 'progressing' && event !== 'progressing' && row.startedData) row.started = { seq: row.state.seq, at: row.state.at, data: row.startedData };
      else if (event === 'progressing') row.started = null;
      row.state = { event, seq: this.seq, at };
    }
    // Merged data is never changed in place, so this is the row as the send started.
    if (event === 'progressing') row.startedData = row.data;
    if (FINAL_EVENTS.has(event)) this.flush(key, row, Date.now());
    else this.arm();
  }

  private flush(key: string, row: PendingRow, now: number): void {
    this.pending.delete(key);
    this.lastFlush.set(key, now);
    const parts = [row.count, row.state].filter((p): p is Part => p !== null).sort((a, b) => a.seq - b.seq);
    if (row.started) this.emit(row.route, 'progressing', row.started.data, row.started.at);
    for (const part of parts) {
      if (row.route.kind === 'target' && part.event === 'in_use') continue;
      this.emit(row.route, part.event, row.data, part.at);
    }
    if (row.route.kind === 'target') {
      // Claimed or released: said once the value differs from the one the lists last saw.
      const inUse = (row.data.receiver as Record<string, unknown> | undefined)?.in_use;
      if (inUse === 0 || inUse === 1) {
        if ((inUse === 1) !== this.shownInUse.has(key)) {
          if (inUse === 1) this.shownInUse.add(key);
          else this.shownInUse.delete(key);
          this.emit(row.route, 'in_use', row.data, row.at);
        }
      }
    }
  }

  /** `at`: when the event happened, the message's `date` (the flush may come up to a window later). */
  private emit(route: Route, event: string, data: Record<string, unknown>, at: number): void {
    this.sent += 1;
    if (route.kind === 'account') this.hub.toUserAndAdmin(route.userId, event, data, at);
    this.hub.toClientAdmin(event, data, at);
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flushDue(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  private flushDue(): void {
    this.timer = null;
    const now = Date.now();
    for (const [key, row] of this.pending) {
      if (now - (this.lastFlush.get(key) ?? 0) >= this.windowMs) this.flush(key, row, now);
    }
    // Forget rows that have been quiet for a whole window, so the map stays small.
    if (this.lastFlush.size > 10_000) {
      for (const [key, at] of this.lastFlush) if (now - at >= this.windowMs && !this.pending.has(key)) this.lastFlush.delete(key);
    }
    if (this.pending.size) this.arm();
  }

  /** Sends everything pending now (shutdown). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const now = Date.now();
    for (const [key, row] of this.pending) this.flush(key, row, now);
  }
}

/** Later data wins field by field; the `receiver` block of phone-number rows merges the same way. */
function mergeData(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a, ...b };
  const ra = a.receiver;
  const rb = b.receiver;
  if (ra && rb && typeof ra === 'object' && typeof rb === 'object') out.receiver = { ...ra, ...rb };
  return out;
}
