import { applyBlastEvent, BLAST_EVENTS } from '../blaster/components/blastRow';

/** An account row of the 'Daftar Whatsapp' list, with the transient flags live events set. */
export interface AccountRow {
  id: number;
  deviceId: string;
  clientid: string;
  pushname: string | null;
  phonenumber: string | null;
  user_id: number;
  state: string | null;
  status: 'idle' | 'sending';
  interval: number | null;
  count_success: number;
  count_fail: number;
  income: number;
  suspended: boolean;
  suspended_count: number;
  user?: { id: number; firstname: string; lastname: string; email: string } | null;
  /** When a scheduled start is set (ISO), or null. */
  scheduled_at?: string | null;
  /** Today's (WIB) sends of the account: sent, delivered, read and failed. */
  today?: TodayOutcomes;
  // Transient flags (spec 3), never sent by the server.
  requesting?: boolean;
  resetting?: boolean;
  activating?: boolean;
  attempting?: boolean;
  attempingCode?: string | null;
  progressing?: boolean;
  /** The last blast event was `progressing` (a send under way): shows 'Generating...'. */
  generating?: boolean;
  waiting?: boolean;
  waitTime?: number;
  successUpdated?: boolean;
  failUpdated?: boolean;
  /** When the wait ends and when a counter last changed (ms since epoch), as blasting rows keep them. */
  waitUntil?: number;
  flashAt?: number;
  /** Waiting for 'Jam Kirim' until this time ('HH:MM'): from the list's row (null when not waiting), then `window_wait`. */
  windowOpensAt?: string | null;
}

export interface TodayOutcomes {
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

export const OUTCOME_KEYS = ['sent', 'delivered', 'read', 'failed'] as const;

/** The `today` block of an `outcomes` event when every figure is a number, else undefined. */
export function outcomesOf(v: unknown): TodayOutcomes | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  return OUTCOME_KEYS.every((k) => num(o[k]) !== undefined) ? { sent: o.sent as number, delivered: o.delivered as number, read: o.read as number, failed: o.failed as number } : undefined;
}

export interface LiveEvent {
  event: string;
  data: Record<string, unknown>;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const CLEARED: Partial<AccountRow> = {
  requesting: false,
  resetting: false,
  activating: false,
  attempting: false,
  attempingCode: null,
  progressing: false,
  generating: false,
  waiting: false,
  waitTime: 0,
};

/**
 * Whether an event is about this row: by device id (as the spec applies connection updates), or by
 * the sender block the server adds to every account event. A bare `id` is not enough, since
 * generator and validator events carry their own ids on the same channels.
 */
export function eventTargets(row: AccountRow, data: Record<string, unknown>): boolean {
  const sender = (data.sender ?? {}) as Record<string, unknown>;
  return (
    (typeof data.deviceId === 'string' && data.deviceId === row.deviceId) ||
    (sender.id !== undefined && sender.id === row.id && (sender.clientid === undefined || sender.clientid === row.clientid))
  );
}

/**
 * Applies one live event (spec 4, Live events) to one row; values are absolute, never deltas.
 * Blast events (sending, waiting, counters…) follow the blasting rules in blastRow.ts.
 */
export function applyEvent(row: AccountRow, msg: LiveEvent): AccountRow {
  const { event, data } = msg;
  if (BLAST_EVENTS.has(event)) return applyBlastEvent(row, msg);
  const state = str(data.state);
  const counters = {
    ...(num(data.count_success) !== undefined ? { count_success: num(data.count_success)! } : {}),
    ...(num(data.count_fail) !== undefined ? { count_fail: num(data.count_fail)! } : {}),
    ...(num(data.income) !== undefined ? { income: num(data.income)! } : {}),
  };
  switch (event) {
    case 'connection.update':
      return { ...row, state: state ?? row.state, ...(state === 'conflict' ? { ...CLEARED, status: 'idle' as const } : {}) };
    case 'suspended': {
      const count = num(data.suspended_count) ?? row.suspended_count;
      return {
        ...row,
        ...CLEARED,
        suspended: data.suspended === undefined ? true : data.suspended === true,
        suspended_count: count,
        status: 'idle',
        ...(count > 2 ? counters : {}),
      };
    }
    case 'activated':
      return { ...row, activating: false, suspended: false, suspended_count: num(data.suspended_count) ?? row.suspended_count };
    case 'reconnecting':
      return { ...row, state: 'reconnecting...' };
    case 'outcomes':
      // The row's figures of today, absolute: they replace what the row showed.
      return { ...row, today: outcomesOf(data.today) ?? row.today };
    case 'scheduled':
      return { ...row, scheduled_at: typeof data.scheduled_at === 'string' ? data.scheduled_at : null };
    case 'reset':
      return { ...row, ...CLEARED, ...counters, state: state ?? row.state };
    default:
      return row;
  }
}

/** Applies an event to whichever rows it targets. */
export function applyLive(rows: AccountRow[], msg: LiveEvent): AccountRow[] {
  let changed = false;
  const next = rows.map((r) => {
    if (!eventTargets(r, msg.data)) return r;
    changed = true;
    return applyEvent(r, msg);
  });
  return changed ? next : rows;
}

/** States for which Reconnect is offered (unset counts as unknown). */
export const RECONNECTABLE = ['', 'disconnected', 'loggedOut', 'unknown', 'conflict'];

export function canReconnect(row: AccountRow): boolean {
  return !row.suspended && RECONNECTABLE.includes(row.state ?? '');
}

/** The transient label of a row as a `whatsapp.labels.*` key, or null (hidden when suspended or reconnecting). */
export function accountLabel(row: AccountRow): { key: string; values?: Record<string, string | number> } | null {
  if (row.suspended || row.state === 'reconnecting...') return null;
  if (row.attempting) return { key: 'whatsapp.labels.attempting', values: { code: row.attempingCode ?? '' } };
  if (row.waiting && (row.waitTime ?? 0) > 0) return { key: 'whatsapp.labels.waiting', values: { seconds: row.waitTime ?? 0 } };
  if (row.windowOpensAt && row.status === 'sending') return { key: 'whatsapp.labels.windowWait', values: { time: row.windowOpensAt } };
  if (row.generating && row.status === 'sending') return { key: 'whatsapp.labels.generating' };
  if (row.status === 'sending') return { key: 'whatsapp.labels.sending' };
  return null;
}
