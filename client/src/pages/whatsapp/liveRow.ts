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
  // Transient flags (spec 3), never sent by the server.
  requesting?: boolean;
  resetting?: boolean;
  activating?: boolean;
  attempting?: boolean;
  attempingCode?: string | null;
  progressing?: boolean;
  waiting?: boolean;
  waitTime?: number;
  successUpdated?: boolean;
  failUpdated?: boolean;
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

/** Applies one live event (spec 4, Live events) to one row; values are absolute, never deltas. */
export function applyEvent(row: AccountRow, { event, data }: LiveEvent): AccountRow {
  const state = str(data.state);
  const counters = {
    ...(num(data.count_success) !== undefined ? { count_success: num(data.count_success)! } : {}),
    ...(num(data.count_fail) !== undefined ? { count_fail: num(data.count_fail)! } : {}),
    ...(num(data.income) !== undefined ? { income: num(data.income)! } : {}),
  };
  switch (event) {
    case 'count_success':
      return { ...row, ...counters, successUpdated: true };
    case 'count_fail':
      return { ...row, ...counters, failUpdated: true };
    case 'count_synced':
      return { ...row, ...counters, successUpdated: true, failUpdated: true };
    case 'sending':
    case 'generating':
    case 'validating':
      return { ...row, status: 'sending', progressing: true, requesting: false };
    case 'stop':
    case 'idle':
      return { ...row, ...CLEARED, status: 'idle' };
    case 'finished':
    case 'error_blast':
    case 'error_generate':
    case 'error_validate':
      return { ...row, ...CLEARED, state: state ?? row.state, status: 'idle' };
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
    case 'attempting':
      return { ...row, attempting: true, attempingCode: str(data.code) ?? (num(data.code) !== undefined ? String(data.code) : null) };
    case 'progressing':
      return { ...row, progressing: true, attempting: false, waiting: false };
    case 'waiting':
      return { ...row, waiting: true, progressing: false, waitTime: num(data.waitTime) ?? 0 };
    case 'reset':
      return { ...row, ...CLEARED, state: state ?? row.state };
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

/** The word shown for a row's run state, or null: hidden when suspended or reconnecting. */
export function transientLabel(row: AccountRow): string | null {
  if (row.suspended || row.state === 'reconnecting...') return null;
  if (row.attempting) return `Fail, attempting (${row.attempingCode ?? ''})...`;
  if (row.waiting) return `Waiting (${row.waitTime ?? 0}s)...`;
  if (row.progressing || row.status === 'sending') return 'Sending...';
  return null;
}

/** States for which Reconnect is offered (unset counts as unknown). */
export const RECONNECTABLE = ['', 'disconnected', 'loggedOut', 'unknown', 'conflict'];

export function canReconnect(row: AccountRow): boolean {
  return !row.suspended && RECONNECTABLE.includes(row.state ?? '');
}
