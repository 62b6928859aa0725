import type { Request } from 'express';
import { HttpError } from './errors';

export const KEY_INVALID = 'Invalid Idempotency-Key header.';
export const KEY_REUSED = 'This Idempotency-Key was already used for another request.';

/**
 * The request's `Idempotency-Key` (8–128 of A–Z, a–z, 0–9, '_' and '-'), or null when it sends none. A
 * money call that carries one is made once: sent again with the same key, it answers what the first made.
 */
export function requestKey(req: Request): string | null {
  const value = req.get('Idempotency-Key');
  if (value === undefined) return null;
  const key = value.trim();
  if (!/^[A-Za-z0-9_-]{8,128}$/.test(key)) throw new HttpError(400, KEY_INVALID);
  return key;
}

/** A unique-index violation of `table`'s request key (the other of two twins sent at once got there first). */
function isKeyViolation(err: unknown, table: string): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const { code, constraint } = e as Error & { code?: unknown; constraint?: unknown };
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' && e.message.includes(`${table}.request_key`)) return true;
    if (code === '23505' && constraint === `${table}_request_key_idx`) return true;
  }
  return false;
}

/**
 * Runs a keyed change; when a twin sent at the same moment committed the same key first, runs it once
 * more, and that run finds the twin's row and answers with it.
 */
export async function onceByKey<T>(key: string | null, table: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (key !== null && isKeyViolation(err, table)) return run();
    throw err;
  }
}
