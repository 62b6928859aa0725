import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { whatsapps } from '../db/schema';
import { isStaffOrAbove, type AuthUser } from '../auth/middleware';
import { HttpError } from '../lib/errors';
import { one } from '../db/raw';
import { accountEventData, type WhatsappRow } from './view';
import { decimal } from '../lib/ids';

export const ACCOUNT_NOT_FOUND = 'Whatsapp not found';

export function accountById(ctx: AppContext, id: number): Promise<WhatsappRow | undefined> {
  return one(ctx.db.select().from(whatsapps).where(eq(whatsapps.id, id)).limit(1));
}

export function accountByDevice(ctx: AppContext, deviceId: string): Promise<WhatsappRow | undefined> {
  return one(ctx.db.select().from(whatsapps).where(eq(whatsapps.deviceId, deviceId)).limit(1));
}

/** Whether the caller may see and act on an account: its owner, or admin and dev. */
export function mayReach(caller: AuthUser, row: WhatsappRow): boolean {
  return row.userId === caller.id || isStaffOrAbove(caller.role);
}

/** The account with this id if the caller may reach it: 404 when missing, 403 when someone else's. */
export async function accountFor(ctx: AppContext, caller: AuthUser, id: number): Promise<WhatsappRow> {
  const row = await accountById(ctx, id);
  if (!row) throw new HttpError(404, ACCOUNT_NOT_FOUND);
  if (!mayReach(caller, row)) throw new HttpError(403, 'Forbidden');
  return row;
}

/** Tells the owner, admin and dev (and the developer's realtime monitor) about an account row. */
export function emitAccount(ctx: AppContext, event: string, row: WhatsappRow, extra: Record<string, unknown> = {}): void {
  const data = accountEventData(row, extra);
  ctx.realtime.toUserAndAdmin(row.userId, event, data);
  ctx.realtime.toClientAdmin(event, data);
}

/**
 * A `:userId` path value or `user_id` query value: 'all', 'null', '0' or empty mean every account
 * (admin and dev) or the caller's own (everyone else).
 */
export function userScope(value: unknown): number | null {
  const text = Array.isArray(value) ? String(value[0] ?? '') : value === undefined || value === null ? '' : String(value);
  if (['', 'all', 'null', 'undefined', '0'].includes(text.trim().toLowerCase())) return null;
  const n = decimal(text);
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) throw new HttpError(404, 'User not found');
  return n;
}
