import { z } from 'zod';
import { HttpError } from './errors';

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/**
 * A number as a form or query string types it: plain decimal digits ('12', ' 12 ', '-3', '1.5') become that
 * number; anything else ('0x10', '1e3', '12abc', '1.234', '') comes back as it was, for the schema to refuse
 * or default. Ids, pages and counts read this way: '1.234' is not an id.
 */
export const decimal = (v: unknown): unknown => (typeof v === 'string' && DECIMAL.test(v.trim()) ? Number(v.trim()) : v);

export const AMOUNT_DIGITS_ONLY = 'Write the amount in digits only, without separators (10000, not 10.000).';

/**
 * An amount (rupiah, a fee, an interval, a requirement) sent as text: digits only, read as `decimal`. A
 * separator ('10,000', '1.000', '10.5', '10000,5') is refused with its own field error: '1.000' is a
 * thousand to an Indonesian and one to a program, and guessing wrong moves money by a factor of a
 * thousand. JSON numbers are unchanged; the console's fields send numbers.
 */
export const typedAmount = (v: unknown, ctx?: { addIssue: (issue: { code: 'custom'; message: string; input?: unknown }) => void }): unknown => {
  if (typeof v !== 'string') return v;
  if (/[.,]/.test(v)) {
    ctx?.addIssue({ code: 'custom', message: AMOUNT_DIGITS_ONLY, input: v });
    return ctx ? z.NEVER : v;
  }
  return decimal(v);
};

/** A positive integer id from a path segment, else 404 (an id that cannot exist). */
export function idParam(value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new HttpError(404, 'Not found');
  return n;
}

/**
 * A labelled whole number from 0 up to `max` (a form field of levels and settings), each failure with its
 * own message; the bounds decide a number past 2^53 (zod's int() would call it not whole).
 */
export const wholeUpTo = (label: string, max: number, tooBig: string) =>
  z.preprocess(
    typedAmount,
    z
      .number({ message: `${label} is required.` })
      .max(max, tooBig)
      .refine(Number.isInteger, `${label} must be a whole number.`)
      .min(0, `${label} must be 0 or more.`),
  );

/** Whole numbers as JSON numbers or numeric strings (forms send strings). */
export const wholeNumber = (message: string, max?: { value: number; message: string }) =>
  z.preprocess(
    typedAmount,
    // With a bound, the bounds decide a number past 2^53 (zod's int() would call it not whole).
    max ? z.number({ message }).max(max.value, max.message).refine(Number.isInteger, message).min(0, message) : z.number({ message }).int(message).min(0, message),
  );
