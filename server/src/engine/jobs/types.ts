import type { AppContext } from '../../context';

export type JobType = 'generator' | 'validator';

/** The columns generators and validators share, as the runner reads them. */
export interface JobRecord {
  id: number;
  userId: number;
  whatsappId: number | null;
  bInsert: number;
  intervalMin: number;
  intervalMax: number;
  total: number;
  checked: number;
  countSuccess: number;
  countFail: number;
  status: 'idle' | 'sending';
  state: string | null;
}

/** The next number a job checks. */
export interface JobTarget {
  number: string;
  /** The name that came with the number (validator files), else ''. */
  name: string;
  /** The validator item this number is, when there is one. */
  itemId?: number;
  /** Set for a row already known to be unusable (counted as Gagal without asking the gateway). */
  invalid?: string;
}

/** What checking one number came to. Only `registered` counts as Berhasil. */
export type CheckOutcome =
  | { result: 'registered'; pushname: string | null }
  | { result: 'unregistered' }
  | { result: 'invalid'; reason: string }
  | { result: 'failed'; reason: string };

/** Job row states kept in `state` (status says whether it runs). */
export type JobState = 'generating' | 'validating' | 'stopped' | 'finished' | 'error';

/** How the runner reads and writes one kind of job; the loop itself is shared. */
export interface JobKind<R extends JobRecord> {
  type: JobType;
  /** The state and event of a running job: 'generating' / 'validating'. */
  runningState: 'generating' | 'validating';
  errorEvent: 'error_generate' | 'error_validate';
  load(ctx: AppContext, id: number): Promise<R | undefined>;
  /** Ids of jobs whose status is sending (to resume after a restart). */
  sendingIds(ctx: AppContext): Promise<number[]>;
  next(ctx: AppContext, job: R): Promise<JobTarget | null>;
  /**
   * Records one checked number in one transaction: the counts, `checked`, the result row and the
   * phone-list insert. Applies only if the job is still at `job.checked` (false otherwise), so a
   * number is never counted twice whatever runs concurrently.
   */
  commit(ctx: AppContext, job: R, target: JobTarget, outcome: CheckOutcome): Promise<boolean>;
  /** Sets status and state; returns the row after, or undefined when it no longer exists. */
  setRun(ctx: AppContext, id: number, status: 'idle' | 'sending', state: JobState | null): Promise<R | undefined>;
  /** The row as live events carry it: absolute values only. */
  eventData(job: R): Record<string, unknown>;
}
