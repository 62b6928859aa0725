export type JobKind = 'generator' | 'validator';

/** The nested account of a job row. */
export interface JobAccount {
  id: number;
  pushname: string | null;
  phonenumber: string | null;
  clientid: string;
  state: string | null;
  /** How the account is linked; a Cloud API account cannot check numbers. Absent on a job's nested account. */
  gateway?: 'simulator' | 'cloud-api';
}

/** A generator or validator row (spec 3 names) with the transient flags live events set. */
export interface JobRow {
  id: number;
  job: JobKind;
  user_id: number;
  whatsapp_id: number | null;
  b_insert: number;
  interval_min: number;
  interval_max: number;
  total: number;
  checked: number;
  count_success: number;
  count_fail: number;
  progress: number;
  status: 'idle' | 'sending';
  state: string | null;
  start_number?: string;
  end_number?: string;
  current_number?: string | null;
  fileName?: string;
  fileUrl?: string;
  Whatsapp: JobAccount | null;
  // Transient flags, never sent by the server.
  requesting?: boolean;
  deleting?: boolean;
  progressing?: boolean;
  waiting?: boolean;
  waitTime?: number;
  attempting?: boolean;
  attempingCode?: string | null;
  successUpdated?: boolean;
  failUpdated?: boolean;
  /** Counts the live events applied, so a late HTTP answer never overwrites a newer event. */
  liveSeq?: number;
}

export interface JobEvent {
  event: string;
  data: Record<string, unknown>;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const CLEARED: Partial<JobRow> = { requesting: false, progressing: false, waiting: false, waitTime: 0, attempting: false, attempingCode: null };

/** The absolute values an event carries for a job row. */
function absolute(row: JobRow, data: Record<string, unknown>): JobRow {
  const next = { ...row };
  for (const key of ['count_success', 'count_fail', 'progress', 'checked', 'total', 'interval_min', 'interval_max', 'b_insert'] as const) {
    const v = num(data[key]);
    if (v !== undefined) next[key] = v;
  }
  if (data.status === 'idle' || data.status === 'sending') next.status = data.status;
  if ('state' in data) next.state = str(data.state) ?? null;
  if ('current_number' in data) next.current_number = str(data.current_number) ?? null;
  if (next.count_success !== row.count_success) next.successUpdated = true;
  if (next.count_fail !== row.count_fail) next.failUpdated = true;
  return next;
}

/** Applies one live event (spec 4) to one job row; values are absolute, so merged events stay right. */
export function applyJobEvent(row: JobRow, { event, data }: JobEvent): JobRow {
  const next = absolute(row, data);
  switch (event) {
    case 'generating':
    case 'validating':
      return { ...next, ...CLEARED, status: 'sending', progressing: true };
    case 'progressing':
      return { ...next, progressing: true, waiting: false, attempting: false };
    case 'waiting':
      return { ...next, waiting: true, progressing: false, waitTime: num(data.waitTime) ?? 0 };
    case 'attempting':
      return { ...next, attempting: true, attempingCode: str(data.attempingCode) ?? null };
    case 'stop':
    case 'idle':
      return { ...next, ...CLEARED, status: 'idle' };
    case 'finished':
      return { ...next, ...CLEARED, status: 'idle', progress: 100 };
    case 'error_generate':
    case 'error_validate':
      // Spec 4: error events set progress 100 on the row, like finished; a reload shows the saved progress.
      return { ...next, ...CLEARED, status: 'idle', progress: 100 };
    default:
      return next;
  }
}

/**
 * Applies an event to the rows of one kind of job. Job events carry `job`; account events (whose
 * ids are account ids) only update the nested account's state, matched by its client id.
 */
export function applyJobLive(rows: JobRow[], kind: JobKind, msg: JobEvent): JobRow[] {
  const { data } = msg;
  if (data.job === kind) {
    const idx = rows.findIndex((r) => r.id === data.id);
    if (idx < 0) return rows;
    const next = rows.slice();
    const row = rows[idx]!;
    next[idx] = { ...applyJobEvent(row, msg), liveSeq: (row.liveSeq ?? 0) + 1 };
    return next;
  }
  if (data.job === undefined && typeof data.clientid === 'string' && typeof data.state === 'string') {
    const state = data.state;
    let changed = false;
    const next = rows.map((r) => {
      const account = r.Whatsapp;
      if (!account || account.clientid !== data.clientid || account.state === state) return r;
      changed = true;
      return { ...r, Whatsapp: { ...account, state } };
    });
    return changed ? next : rows;
  }
  return rows;
}

/** The run word of the Status column: a `jobs.status.*` key, its values and the tag colour. */
export interface JobStatusLabel {
  key: string;
  values?: Record<string, string | number>;
  color: string;
}

export function jobStatusLabel(row: JobRow): JobStatusLabel {
  if (row.requesting) return { key: row.status === 'sending' ? 'jobs.status.stopping' : 'jobs.status.starting', color: 'processing' };
  if (row.status === 'sending') {
    if (row.attempting) return { key: 'jobs.status.attempting', values: { code: row.attempingCode ?? '' }, color: 'orange' };
    if (row.waiting) return { key: 'jobs.status.waiting', values: { seconds: row.waitTime ?? 0 }, color: 'processing' };
    return { key: row.job === 'validator' ? 'jobs.status.validating' : 'jobs.status.generating', color: 'processing' };
  }
  if (row.state === 'finished') return { key: 'jobs.status.finished', color: 'green' };
  if (row.state === 'error') return { key: 'jobs.status.error', color: 'red' };
  if (row.state === 'stopped') return { key: 'jobs.status.stopped', color: 'default' };
  return { key: 'jobs.status.idle', color: 'default' };
}
