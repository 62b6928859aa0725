/**
 * A row an import skipped, apart from lib/serverError.ts: the create screens write their downloads with it,
 * and serverError.ts (with the server's message table, common/errors.ts) loads only when a reason is drawn.
 */

/** A row an import skipped: `reason` is the stored text, `reasonCode` its stable code (when it has one). */
export interface SkipReason {
  reason: string;
  reasonCode?: string;
}

/** The row as the downloads write it: the stored reason, without the code the screen uses. */
export function withoutReasonCode<T extends SkipReason>(row: T): Omit<T, 'reasonCode'> {
  const { reasonCode: _code, ...rest } = row;
  return rest;
}
