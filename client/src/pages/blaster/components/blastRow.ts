/**
 * Blast events applied to a WhatsApp account row. The server may merge a row's events (at most
 * one flush per 250 ms, values absolute), so counters and status are taken from any event's data,
 * and a counter flashes whenever its value changes, whatever the event's name.
 */

/** The fields of an account row that blasting reads and sets (spec 3 names). */
export interface BlastRowFields {
  id: number;
  deviceId: string;
  clientid: string;
  state: string | null;
  status: 'idle' | 'sending';
  count_success: number;
  count_fail: number;
  income: number;
  suspended: boolean;
  suspended_count: number;
  requesting?: boolean;
  attempting?: boolean;
  attempingCode?: string | null;
  progressing?: boolean;
  /** The last event was `progressing` (a send to a target under way): shows 'Generating...'. */
  generating?: boolean;
  waiting?: boolean;
  waitTime?: number;
  /** When the wait ends (ms since epoch), so the countdown stays right whenever the event arrived. */
  waitUntil?: number;
  /** Waiting for 'Jam Kirim': when it next opens ('HH:MM', the install's zone); any other blast event clears it. */
  windowOpensAt?: string | null;
  successUpdated?: boolean;
  failUpdated?: boolean;
  /** When a counter last changed (ms since epoch); the highlight lasts 1 s from then. */
  flashAt?: number;
}

export interface BlastEvent {
  event: string;
  data: Record<string, unknown>;
}

/** The events of the blast engine (spec 4, Live events). */
export const BLAST_EVENTS = new Set([
  'sending',
  'waiting',
  'attempting',
  'count_success',
  'count_fail',
  'count_synced',
  'progressing',
  'finished',
  'error_blast',
  'stop',
  'idle',
  'window_wait',
]);

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const CLEARED = {
  requesting: false,
  attempting: false,
  attempingCode: null,
  progressing: false,
  generating: false,
  waiting: false,
  waitTime: 0,
  waitUntil: undefined,
} satisfies Partial<BlastRowFields>;

/** Whether an event is about this row (its sender block names the row, or its device id does). */
export function isForRow(row: Pick<BlastRowFields, 'id' | 'deviceId'>, data: Record<string, unknown>): boolean {
  const sender = data.sender as Record<string, unknown> | undefined;
  if (sender && typeof sender === 'object') return sender.id === row.id;
  return typeof data.deviceId === 'string' && data.deviceId === row.deviceId;
}

/** One blast event applied to one row; answers the row unchanged for other events. */
export function applyBlastEvent<T extends BlastRowFields>(row: T, { event, data }: BlastEvent, now = Date.now()): T {
  if (!BLAST_EVENTS.has(event)) return row;
  const success = num(data.count_success) ?? row.count_success;
  const fail = num(data.count_fail) ?? row.count_fail;
  const status = data.status === 'idle' || data.status === 'sending' ? data.status : row.status;
  const next: T = {
    ...row,
    count_success: success,
    count_fail: fail,
    income: num(data.income) ?? row.income,
    state: str(data.state) ?? row.state,
    status,
    successUpdated: row.successUpdated || success !== row.count_success,
    failUpdated: row.failUpdated || fail !== row.count_fail,
    flashAt: success !== row.count_success || fail !== row.count_fail ? now : row.flashAt,
    generating: event === 'progressing',
    windowOpensAt: event === 'window_wait' ? str(data.windowOpensAt) : undefined,
  };
  switch (event) {
    case 'sending':
      return { ...next, status: 'sending', requesting: false, progressing: true, attempting: false, waiting: false };
    case 'progressing':
      return { ...next, status: 'sending', requesting: false, progressing: true, attempting: false, waiting: false };
    case 'count_success':
    case 'count_fail':
    case 'count_synced':
      return { ...next, requesting: false, attempting: false, waiting: false };
    case 'attempting':
      return { ...next, attempting: true, waiting: false, attempingCode: str(data.attemptingCode) ?? str(data.code) ?? null };
    case 'window_wait':
      return { ...next, status: 'sending', requesting: false, attempting: false, progressing: false, waiting: false, waitTime: 0, waitUntil: undefined };
    case 'waiting': {
      const seconds = num(data.waitTime) ?? 0;
      const until = typeof data.waitUntil === 'string' ? Date.parse(data.waitUntil) : now + seconds * 1000;
      const left = Math.max(0, Math.ceil((until - now) / 1000));
      return { ...next, attempting: false, progressing: false, waiting: true, waitUntil: until, waitTime: Math.min(seconds, left) };
    }
    default:
      // finished, error_blast, stop, idle: the run is over.
      return { ...next, ...CLEARED, status: 'idle' };
  }
}

/** The countdown after a second has passed: whole seconds left until waitUntil. */
export function tick<T extends BlastRowFields>(row: T, now = Date.now()): T {
  if (!row.waiting || !row.waitTime) return row;
  const left = row.waitUntil !== undefined ? Math.max(0, Math.ceil((row.waitUntil - now) / 1000)) : row.waitTime - 1;
  return left === row.waitTime ? row : { ...row, waitTime: Math.max(0, left) };
}

/** The row with its counter highlight switched off once 1 s has passed since the last change. */
export function unflash<T extends BlastRowFields>(row: T, now = Date.now(), ms = 1000): T {
  if (!(row.successUpdated || row.failUpdated) || (row.flashAt !== undefined && now - row.flashAt < ms)) return row;
  return { ...row, successUpdated: false, failUpdated: false };
}

/** The transient label of a row, or null (hidden when suspended or reconnecting). */
export function blastLabel(row: BlastRowFields): string | null {
  if (row.suspended || row.state === 'reconnecting...') return null;
  if (row.attempting) return `Fail, attempting (${row.attempingCode ?? ''})...`;
  if (row.waiting && (row.waitTime ?? 0) > 0) return `Waiting (${row.waitTime}s)...`;
  if (row.generating && row.status === 'sending') return 'Generating...';
  if (row.status === 'sending') return 'Sending...';
  return null;
}
