import { and, eq, gt, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { whatsapps } from '../db/schema';
import type { ConnectionState, GatewayEvent } from '../gateway/types';
import { accountByDevice, accountById, emitAccount } from './access';
import { cloudGatewayOf } from '../gateway';
import { decryptSecret } from '../lib/secrets';
import { notify, pendingLinks } from './pending';
import { accountEventData, type WhatsappRow } from './view';

/** At the third suspension the account's counters are reset and it stays suspended. */
export const SUSPENSIONS_BEFORE_LOCK = 3;

const started = new WeakMap<AppContext, Promise<void>>();
const queues = new WeakMap<AppContext, Map<string, Promise<unknown>>>();

/**
 * Runs `work` after every earlier piece of work queued for the same device, so the writes one device's
 * events cause land in the order the gateway reported them.
 */
export function inDeviceOrder<T>(ctx: AppContext, deviceId: string, work: () => Promise<T>): Promise<T> {
  let byDevice = queues.get(ctx);
  if (!byDevice) {
    byDevice = new Map();
    queues.set(ctx, byDevice);
  }
  const previous = byDevice.get(deviceId) ?? Promise.resolve();
  const result = previous.then(work, work);
  const settled = result.then(
    () => undefined,
    () => undefined,
  );
  byDevice.set(deviceId, settled);
  void settled.then(() => {
    if (byDevice.get(deviceId) === settled) byDevice.delete(deviceId);
  });
  return result;
}

/** Suspends an account whose owner deleted a sent message; blasting stops (status idle). */
export async function suspendAccount(ctx: AppContext, row: WhatsappRow): Promise<WhatsappRow> {
  const count = row.suspendedCount + 1;
  const locked = count >= SUSPENSIONS_BEFORE_LOCK;
  await ctx.db
    .update(whatsapps)
    .set({
      suspended: true,
      suspendedCount: sql`${whatsapps.suspendedCount} + 1`,
      status: 'idle',
      updatedAt: new Date(),
      ...(locked ? { countSuccess: 0, countFail: 0, income: 0 } : {}),
    })
    .where(eq(whatsapps.id, row.id));
  const updated = (await accountById(ctx, row.id)) ?? row;
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
export async function applyConnectionState(ctx: AppContext, row: WhatsappRow, state: ConnectionState): Promise<void> {
  if (row.state === state && !(state === 'conflict' && row.status !== 'idle')) return;
  const reconnected = state === 'connected' && DROPPED_STATES.has(row.state ?? '');
  await ctx.db
    .update(whatsapps)
    .set({
      state,
      ...(state === 'conflict' ? { status: 'idle' as const } : {}),
      ...(reconnected ? { reconnectCount: sql`${whatsapps.reconnectCount} + 1` } : {}),
      updatedAt: new Date(),
    })
    .where(eq(whatsapps.id, row.id));
  emitAccount(ctx, 'connection.update', (await accountById(ctx, row.id)) ?? row);
}

/** What an event changes in the accounts' rows (run in the device's order, see inDeviceOrder). */
async function storeGatewayEvent(ctx: AppContext, event: GatewayEvent, linkOwner: number | null): Promise<void> {
  switch (event.type) {
    case 'authenticated': {
      const row = await accountByDevice(ctx, event.deviceId);
      const data = row
        ? accountEventData(row, { state: 'authenticated', number: event.identity.phonenumber })
        : { deviceId: event.deviceId, state: 'authenticated', number: event.identity.phonenumber, user_id: linkOwner };
      ctx.realtime.toClientAdmin('authenticated', data);
      return;
    }
    case 'connection.update': {
      const row = await accountByDevice(ctx, event.deviceId);
      if (row) await applyConnectionState(ctx, row, event.state);
      return;
    }
    case 'revoke': {
      const row = await accountByDevice(ctx, event.deviceId);
      if (row) await suspendAccount(ctx, row);
      return;
    }
    case 'error': {
      const data = { deviceId: event.deviceId, message: event.message };
      const row = await accountByDevice(ctx, event.deviceId);
      if (row) ctx.realtime.toUserAndAdmin(row.userId, 'uncaughtException', data);
      else if (linkOwner !== null) ctx.realtime.toUser(linkOwner, 'uncaughtException', data);
      return;
    }
    default:
      return;
  }
}

/** Events that touch the accounts' rows; QR rotation, pairing codes and inbound messages have their own consumers. */
const STORED = new Set<GatewayEvent['type']>(['authenticated', 'connection.update', 'revoke', 'error']);

function onGatewayEvent(ctx: AppContext, event: GatewayEvent): void {
  // A device being linked hears about its progress at once; it holds no row yet.
  const link = pendingLinks(ctx).get(event.deviceId);
  if (link) {
    if (event.type === 'authenticated') {
      link.identity = event.identity;
      notify(link);
    } else if (event.type === 'connection.update') {
      notify(link);
    } else if (event.type === 'disconnected' && event.reason === 'expired') {
      link.expired = true;
      notify(link);
    }
  }
  if (!STORED.has(event.type)) return;
  const linkOwner = link?.ownerId ?? null;
  inDeviceOrder(ctx, event.deviceId, () => storeGatewayEvent(ctx, event, linkOwner)).catch((err: unknown) => {
    ctx.log(`Storing the gateway's ${event.type} event of ${event.deviceId} failed`, err);
  });
}

const RESTORABLE: Record<string, ConnectionState> = {
  connected: 'connected',
  sending: 'connected',
  disconnected: 'disconnected',
  conflict: 'conflict',
  unknown: 'unknown',
  'reconnecting...': 'disconnected',
};

/** A saved account as restoring its session reads it (the row's column names). */
export interface SavedSession {
  device_id: string;
  phonenumber: string | null;
  pushname: string | null;
  server: string | null;
  serialized: string | null;
  state: string | null;
  gateway?: string | null;
  cloud_phone_number_id?: string | null;
  cloud_token?: string | null;
}

/**
 * Re-opens one saved session in this process's gateway unless the gateway knows it already (re-opened
 * earlier, or linked since): the identity and state for the simulator; a Cloud API number also hands
 * its credentials (the token decrypted) to the Cloud gateway. Nothing happens without saved
 * credentials or after a logout. Answers false when the gateway knew the session.
 */
export function ensureSessionOf(ctx: AppContext, row: SavedSession): boolean {
  if (ctx.gateway.state(row.device_id) !== null) return false;
  restoreSession(ctx, row);
  return true;
}

function restoreSession(ctx: AppContext, row: SavedSession): void {
  if (!row.serialized || !row.phonenumber || row.state === 'loggedOut') return;
  const state = RESTORABLE[row.state ?? 'unknown'] ?? 'unknown';
  const identity = { phonenumber: row.phonenumber, pushname: row.pushname ?? '', server: row.server ?? 'c.us', serialized: row.serialized };
  if (row.gateway === 'cloud-api') {
    const cloud = cloudGatewayOf(ctx.gateway);
    if (!cloud || !row.cloud_phone_number_id || !row.cloud_token) return;
    let token: string;
    try {
      token = decryptSecret(ctx.config.secretKey, row.cloud_token);
    } catch {
      ctx.log(`The saved Cloud API token of ${row.device_id} cannot be decrypted (another SECRET_KEY?)`);
      return;
    }
    cloud.register(row.device_id, { phoneNumberId: row.cloud_phone_number_id, token }, identity, 'connected');
    return;
  }
  ctx.gateway.restoreSession(row.device_id, identity, state);
}

/** Per app: whether the start-up restore has passed every saved session. */
const restoring = new WeakMap<AppContext, { done: boolean }>();
/** Per app: what the start-up work waits for before it begins (main.ts: the server listening). */
const holds = new WeakMap<AppContext, Promise<void>>();

/**
 * Holds back the start-up restore and the engine's recovery until the returned function is called
 * (main.ts calls it once the server listens), so the first requests never wait behind them.
 */
export function holdStartup(ctx: AppContext): () => void {
  let release = () => undefined as void;
  holds.set(ctx, new Promise<void>((resolve) => (release = resolve)));
  return release;
}

/** Resolves once the start-up work may begin (at once unless held by holdStartup). */
export function startupReleased(ctx: AppContext): Promise<void> {
  return holds.get(ctx) ?? Promise.resolve();
}

/**
 * Re-opens the saved sessions, as a real gateway reloads its credentials after a restart: in pages of
 * `restore.batch` rows by id (never every row at once), yielding to requests between pages (and
 * pausing `restore.pauseMs`). A session the gateway knows already (re-opened on first use, or linked
 * since) is left as it is.
 */
async function restoreSessions(ctx: AppContext, progress: { done: boolean }): Promise<void> {
  await startupReleased(ctx);
  const { batch, pauseMs } = ctx.config.restore;
  const startedAt = Date.now();
  let after = 0;
  let reopened = 0;
  for (;;) {
    const rows = await ctx.db
      .select({
        id: whatsapps.id,
        device_id: whatsapps.deviceId,
        phonenumber: whatsapps.phonenumber,
        pushname: whatsapps.pushname,
        server: whatsapps.server,
        serialized: whatsapps.serialized,
        state: whatsapps.state,
        gateway: whatsapps.gateway,
        cloud_phone_number_id: whatsapps.cloudPhoneNumberId,
        cloud_token: whatsapps.cloudToken,
      })
      .from(whatsapps)
      .where(
        and(
          gt(whatsapps.id, after),
          isNotNull(whatsapps.serialized),
          isNotNull(whatsapps.phonenumber),
          or(isNull(whatsapps.state), ne(whatsapps.state, 'loggedOut')),
        ),
      )
      .orderBy(whatsapps.id)
      .limit(batch);
    for (const row of rows) {
      if (ensureSessionOf(ctx, row)) reopened += 1;
    }
    if (rows.length < batch) break;
    after = rows[rows.length - 1]!.id;
    await new Promise<void>((resolve) => (pauseMs ? setTimeout(resolve, pauseMs) : setImmediate(resolve)));
  }
  progress.done = true;
  if (reopened) ctx.log(`Saved sessions re-opened: ${reopened} in ${Date.now() - startedAt} ms`);
}

/** Whether the start-up restore has re-opened every saved session (true when it never ran). */
export function sessionsRestored(ctx: AppContext): boolean {
  return restoring.get(ctx)?.done ?? true;
}

/**
 * The gateway's state of an account's device. While the start-up restore is still under way, a
 * session it has not reached yet is re-opened now from the row, so the account shows its saved state
 * (not 'unknown' or disconnected) before its turn in the restore comes.
 */
export function liveStateOf(ctx: AppContext, row: WhatsappRow): ConnectionState | null {
  if (!sessionsRestored(ctx)) ensureSessionOfRow(ctx, row);
  return ctx.gateway.state(row.deviceId);
}

/** ensureSessionOf for an account row as the query builder reads it. */
export function ensureSessionOfRow(ctx: AppContext, row: WhatsappRow): boolean {
  return ensureSessionOf(ctx, {
    device_id: row.deviceId,
    phonenumber: row.phonenumber,
    pushname: row.pushname,
    server: row.server,
    serialized: row.serialized,
    state: row.state,
    gateway: row.gateway,
    cloud_phone_number_id: row.cloudPhoneNumberId,
    cloud_token: row.cloudToken,
  });
}

/**
 * Connects the accounts to the gateway once per app: the gateway's events update the rows from now on
 * (the listener is attached before this returns), and saved sessions are re-opened in the background;
 * the promise resolves when they all are (every call answers the same promise). Nothing needs to wait
 * for it: whatever uses an account re-opens its session first if the restore has not reached it.
 */
export function startWhatsappEvents(ctx: AppContext): Promise<void> {
  const running = started.get(ctx);
  if (running) return running;
  ctx.gateway.on((event) => onGatewayEvent(ctx, event));
  const progress = { done: false };
  restoring.set(ctx, progress);
  const ready = restoreSessions(ctx, progress).catch((err: unknown) => {
    progress.done = true;
    ctx.log('Re-opening the saved WhatsApp sessions failed', err);
  });
  started.set(ctx, ready);
  return ready;
}
