import { and, eq, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { whatsapps } from '../db/schema';
import type { ConnectionState, GatewayEvent } from '../gateway/types';
import { accountByDevice, accountById, emitAccount } from './access';
import { notify, pendingLinks } from './pending';
import { accountEventData, type WhatsappRow } from './view';

/** At the third suspension the account's counters are reset and it stays suspended. */
export const SUSPENSIONS_BEFORE_LOCK = 3;

const wired = new WeakSet<AppContext>();

/** Suspends an account whose owner deleted a sent message; blasting stops (status idle). */
export function suspendAccount(ctx: AppContext, row: WhatsappRow): WhatsappRow {
  const count = row.suspendedCount + 1;
  const locked = count >= SUSPENSIONS_BEFORE_LOCK;
  ctx.db
    .update(whatsapps)
    .set({
      suspended: true,
      suspendedCount: sql`${whatsapps.suspendedCount} + 1`,
      status: 'idle',
      updatedAt: new Date(),
      ...(locked ? { countSuccess: 0, countFail: 0, income: 0 } : {}),
    })
    .where(eq(whatsapps.id, row.id))
    .run();
  const updated = accountById(ctx, row.id) ?? row;
  emitAccount(ctx, 'suspended', updated);
  return updated;
}

/** States a session comes back from by itself: back to connected, that is a gateway reconnect. */
const DROPPED_STATES = new Set(['disconnected', 'unknown', 'conflict']);

/**
 * Stores a connection state reported by the gateway and tells the lists; a conflict also stops
 * blasting. A dropped session that is connected again counts as a reconnect (an in-place reconnect,
 * 'reconnecting...', was counted when it started).
 */
export function applyConnectionState(ctx: AppContext, row: WhatsappRow, state: ConnectionState): void {
  if (row.state === state && !(state === 'conflict' && row.status !== 'idle')) return;
  const reconnected = state === 'connected' && DROPPED_STATES.has(row.state ?? '');
  ctx.db
    .update(whatsapps)
    .set({
      state,
      ...(state === 'conflict' ? { status: 'idle' as const } : {}),
      ...(reconnected ? { reconnectCount: sql`${whatsapps.reconnectCount} + 1` } : {}),
      updatedAt: new Date(),
    })
    .where(eq(whatsapps.id, row.id))
    .run();
  emitAccount(ctx, 'connection.update', accountById(ctx, row.id) ?? row);
}

function onGatewayEvent(ctx: AppContext, event: GatewayEvent): void {
  const link = pendingLinks(ctx).get(event.deviceId);
  switch (event.type) {
    case 'authenticated': {
      if (link) {
        link.identity = event.identity;
        notify(link);
      }
      const row = accountByDevice(ctx, event.deviceId);
      const data = row
        ? accountEventData(row, { state: 'authenticated', number: event.identity.phonenumber })
        : { deviceId: event.deviceId, state: 'authenticated', number: event.identity.phonenumber, user_id: link?.ownerId ?? null };
      ctx.realtime.toClientAdmin('authenticated', data);
      return;
    }
    case 'connection.update': {
      if (link) notify(link);
      const row = accountByDevice(ctx, event.deviceId);
      if (row) applyConnectionState(ctx, row, event.state);
      return;
    }
    case 'disconnected':
      if (link && event.reason === 'expired') {
        link.expired = true;
        notify(link);
      }
      return;
    case 'revoke': {
      const row = accountByDevice(ctx, event.deviceId);
      if (row) suspendAccount(ctx, row);
      return;
    }
    case 'error': {
      const data = { deviceId: event.deviceId, message: event.message };
      const row = accountByDevice(ctx, event.deviceId);
      if (row) ctx.realtime.toUserAndAdmin(row.userId, 'uncaughtException', data);
      else if (link) ctx.realtime.toUser(link.ownerId, 'uncaughtException', data);
      return;
    }
    default:
      // QR rotation, pairing codes and inbound messages are read by their own consumers.
      return;
  }
}

const RESTORABLE: Record<string, ConnectionState> = {
  connected: 'connected',
  sending: 'connected',
  disconnected: 'disconnected',
  conflict: 'conflict',
  unknown: 'unknown',
  'reconnecting...': 'disconnected',
};

/**
 * Connects the accounts to the gateway once per app: saved sessions are re-opened (as a real
 * gateway reloads its credentials after a restart) and the gateway's events update the rows.
 */
export function startWhatsappEvents(ctx: AppContext): void {
  if (wired.has(ctx)) return;
  wired.add(ctx);
  const rows = ctx.db
    .select()
    .from(whatsapps)
    .where(and(isNotNull(whatsapps.serialized), isNotNull(whatsapps.phonenumber), or(isNull(whatsapps.state), ne(whatsapps.state, 'loggedOut'))))
    .all();
  for (const row of rows) {
    const state = RESTORABLE[row.state ?? 'unknown'] ?? 'unknown';
    ctx.gateway.restoreSession(
      row.deviceId,
      { phonenumber: row.phonenumber!, pushname: row.pushname ?? '', server: row.server ?? 'c.us', serialized: row.serialized! },
      state,
    );
  }
  ctx.gateway.on((event) => onGatewayEvent(ctx, event));
}
