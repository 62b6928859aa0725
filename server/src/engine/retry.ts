import type { SendErrorCode } from '../gateway/types';
import type { SendRecord } from './store';

/**
 * Retries with a policy. A send that failed for a reason that may pass is recorded (one message-log row
 * per attempt, nothing paid) and the number waits for its next attempt; one that failed for a reason
 * that will not pass, or whose attempts ran out ('Maks. Percobaan'), leaves the number 'Gagal permanen'.
 */

/**
 * Reasons that may pass on the simulator: its network's timeouts, rate limits and transient failures.
 * A number without WhatsApp or a malformed one will fail alike every time.
 */
const TRANSIENT: ReadonlySet<SendErrorCode> = new Set(['timeout', 'rate_limited', 'failed']);
/**
 * On the Cloud API a rate limit (130429, 131056, 4, 80007, HTTP 429) and a timeout after the gateway's own
 * tries may pass. Its 'failed' is a refusal Graph would repeat (an unknown code, a recipient's parameter),
 * like not_registered (131026) or re-engagement (131047), a policy refusal.
 */
const CLOUD_TRANSIENT: ReadonlySet<SendErrorCode> = new Set(['timeout', 'rate_limited']);

/** Whether a failed send may be tried again later. */
export function isTransient(code: SendErrorCode, cloud: boolean): boolean {
  return (cloud ? CLOUD_TRANSIENT : TRANSIENT).has(code);
}

export interface RetryWait {
  /** The wait after the first failed attempt. */
  baseMs: number;
  /** No wait is longer than this. */
  maxMs: number;
}

/** One minute after the first failure, doubling, at most an hour. */
export const DEFAULT_RETRY_WAIT: RetryWait = { baseMs: 60_000, maxMs: 3_600_000 };

/** 'Maks. Percobaan': default and bounds. */
export const MAX_ATTEMPTS_DEFAULT = 3;
export const MAX_ATTEMPTS_MIN = 1;
export const MAX_ATTEMPTS_MAX = 10;

/**
 * The wait after failed attempt `attempt` (1 for the first): exponential with a cap and "equal jitter"
 * (half the capped wait fixed, the other half random), as Sidekiq, pg-boss and the AWS back-off note do,
 * so numbers that failed together (one rate limit) do not all come back in the same second; below the cap
 * no wait is shorter than the one before it (attempt n waits between base·2^(n-2) and base·2^(n-1)).
 */
export function retryDelayMs(attempt: number, wait: RetryWait, random: () => number = Math.random): number {
  const capped = Math.min(wait.maxMs, wait.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(capped / 2 + random() * (capped / 2));
}

/** What a recorded send leaves the number with. */
export interface RetryOutcome {
  /** When the number may be claimed for its next attempt; null when none is due. */
  retryAt: number | null;
  /** 'Gagal permanen': attempts exhausted, or a reason that will not pass. */
  failed: boolean;
}

/** The policy for one recorded send, attempt `attempt` of at most `maxAttempts`. */
export function retryOutcome(
  send: { success: boolean; transient?: boolean },
  attempt: number,
  maxAttempts: number,
  now: number,
  wait: RetryWait,
  random: () => number = Math.random,
): RetryOutcome {
  if (send.success) return { retryAt: null, failed: false };
  if (send.transient && attempt < maxAttempts) return { retryAt: now + retryDelayMs(attempt, wait, random), failed: false };
  return { retryAt: null, failed: true };
}

/** The phone-number columns of a recorded send (one per send, in both stores). */
export function targetOutcome(r: SendRecord) {
  return {
    attempt: r.target.attempt ?? 1,
    retryAt: r.success ? null : (r.retryAt ?? null),
    failed: !r.success && r.failed === true ? 1 : 0,
  };
}
