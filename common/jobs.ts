/** Limits and messages of generator and validator jobs, shared by the server and the screens. */

/** A job walks at most this many numbers (a generator range or a validator file). */
export const MAX_JOB_NUMBERS = 100_000;

/** An uploaded validator file may be at most this large. */
export const MAX_VALIDATOR_FILE_BYTES = 10 * 1024 * 1024;

/** Start/stop refused because the job's WhatsApp account is not connected (shown under 'Forbidden'). */
export const DISCONNECTED_MESSAGE = 'Sambungan terputus, silahkan sambungkan ulang!';

export const RANGE_ORDER_MESSAGE = 'Target nomor awal harus lebih kecil dari nomor akhir';
export const INTERVAL_ORDER_MESSAGE = 'Interval minimal harus lebih kecil dari interval maksimal';

/** Account states in which a job may not start or stop (an unset state counts too). */
export const UNUSABLE_STATES = ['', 'disconnected', 'unknown', 'loggedOut', 'conflict'] as const;

/** Whether a job may run on an account in this state: only a connected (or blasting) account can check numbers. */
export function accountCanRunJobs(state: string | null | undefined): boolean {
  return state === 'connected' || state === 'sending';
}

/** checked / total × 100, cut (not rounded) to 2 decimals so only a finished job shows 100.00. */
export function jobProgress(checked: number, total: number): number {
  if (total <= 0) return 0;
  return Math.floor((checked * 10_000) / total) / 100;
}
