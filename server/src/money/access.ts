import { eq } from 'drizzle-orm';
import type { AuthUser } from '../auth/middleware';
import type { Db } from '../db/client';
import { one } from '../db/raw';
import { users } from '../db/schema';
import { HttpError } from '../lib/errors';
import { decimal } from '../lib/ids';

/**
 * Money figures of a user: admin, dev (and staff, where the route table lets them) read anyone's;
 * a member only their own, whatever id the request carries.
 */
export function moneyReader(caller: AuthUser, userId: number): number {
  if (caller.role === 'member' && caller.id !== userId) throw new HttpError(403, 'Forbidden');
  return userId;
}

export async function assertUserExists(db: Db, userId: number): Promise<void> {
  if (!(await one(db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1)))) throw new HttpError(404, 'User not found');
}

/** An optional id from the query string (`user_id`); empty, 'null' or junk mean none. */
export function optionalId(value: unknown): number | null {
  const s = Array.isArray(value) ? value[0] : value;
  if (typeof s !== 'string' && typeof s !== 'number') return null;
  const n = decimal(s);
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}
