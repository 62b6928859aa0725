import { asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { transaction } from '../db/client';
import { one } from '../db/raw';
import { proxies, whatsapps } from '../db/schema';
import type { AuthUser } from '../auth/middleware';
import { HttpError } from '../lib/errors';
import type { DeviceIdentity, SessionPhase } from '../gateway/types';
import { accountByDevice, accountById, accountFor, emitAccount, mayReach } from './access';
import { inDeviceOrder, liveStateOf } from './events';
import { dropPending, MAX_PENDING_PER_USER, notify, PENDING_TTL_MS, pendingLinks, waitFor, type PendingLink } from './pending';
import { whatsappView } from './view';
import type { z } from 'zod';
import type { NewClientBody, SaveBody } from './schema';
import { normalizePhone } from '../../../common/phone';
import { defaultCountry } from '../settings/service';
import { holdLink } from './shared-links';
import { cloudGatewayOf } from '../gateway';
import { isCloudDevice, NO_QR_MSG } from '../gateway/cloud/cloud';

/** The QR (or pairing code) call gives up after this long, as the console does. */
export const QR_WAIT_MS = 120_000;

const CLIENT_NOT_FOUND = 'Client not found';

async function leastUsedProxy(ctx: AppContext): Promise<{ id: number; value: string } | null> {
  const row = await one(
    ctx.db
      .select({ id: proxies.id, value: proxies.value })
      .from(proxies)
      .where(eq(proxies.status, 'active'))
      .orderBy(asc(proxies.countUse), asc(proxies.id))
      .limit(1),
  );
  return row ?? null;
}

function ownPending(ctx: AppContext, caller: AuthUser, deviceId: string): PendingLink | undefined {
  const link = pendingLinks(ctx).get(deviceId);
  return link && link.ownerId === caller.id ? link : undefined;
}

/** Reconnects a conflicted account in place: the saved session takes over again, no QR needed. */
async function reconnectInPlace(ctx: AppContext, caller: AuthUser, deviceId: string) {
  const row = await accountByDevice(ctx, deviceId);
  if (!row || !mayReach(caller, row)) throw new HttpError(404, CLIENT_NOT_FOUND);
  if (row.suspended) throw new HttpError(409, 'Akun ditangguhkan. Silahkan hubungi Admin/CS');
  // Both writes take their turn behind the device's gateway events, so a late event cannot undo them.
  await inDeviceOrder(ctx, deviceId, async () => {
    // Counted when the attempt starts, so the 'reconnecting' event already carries it.
    await ctx.db
      .update(whatsapps)
      .set({ state: 'reconnecting...', reconnectCount: sql`${whatsapps.reconnectCount} + 1`, updatedAt: new Date() })
      .where(eq(whatsapps.id, row.id));
    emitAccount(ctx, 'reconnecting', (await accountById(ctx, row.id)) ?? row);
  });
  const state = await ctx.gateway.reconnect(deviceId);
  // The gateway's connection.update moves the row on success; a session that cannot come back is logged out.
  await inDeviceOrder(ctx, deviceId, async () => {
    const now = await accountById(ctx, row.id);
    if (now && now.state === 'reconnecting...') {
      await ctx.db.update(whatsapps).set({ state, updatedAt: new Date() }).where(eq(whatsapps.id, row.id));
      emitAccount(ctx, 'connection.update', (await accountById(ctx, row.id)) ?? now);
    }
  });
  return { proxyId: row.proxyId, state };
}

/** POST new-client: starts linking a device by QR, or by pairing code when a phone number is given. */
export async function newClient(ctx: AppContext, caller: AuthUser, body: z.infer<typeof NewClientBody>) {
  const { deviceId } = body;
  // A business number is linked with its token (cloud-link), never by QR code or pairing code.
  if (isCloudDevice(deviceId) && cloudGatewayOf(ctx.gateway)) throw new HttpError(409, NO_QR_MSG);
  if (body.previousDeviceId) {
    const previous = await accountByDevice(ctx, body.previousDeviceId);
    if (previous?.gateway === 'cloud-api') throw new HttpError(409, NO_QR_MSG);
    if (body.previousDeviceId === deviceId) return reconnectInPlace(ctx, caller, deviceId);
    if (!previous || !mayReach(caller, previous)) throw new HttpError(404, CLIENT_NOT_FOUND);
  }
  if (await accountByDevice(ctx, deviceId)) throw new HttpError(409, 'WhatsApp ID sudah dipakai');

  let phoneNumber: string | null = null;
  if (body.phoneNumber) {
    const phone = normalizePhone(body.phoneNumber, await defaultCountry(ctx.db));
    if (!phone.ok) throw new HttpError(422, phone.message, { errors: { phoneNumber: phone.message } });
    phoneNumber = phone.number;
  }
  const proxy = await leastUsedProxy(ctx);

  // From here on nothing waits, so two calls for one WhatsApp ID cannot both pass the check.
  const links = pendingLinks(ctx);
  const existing = links.get(deviceId);
  if (existing && existing.ownerId !== caller.id) throw new HttpError(409, 'WhatsApp ID sudah dipakai');
  if (existing) dropPending(ctx, deviceId, false);
  const mine = [...links.values()].filter((l) => l.ownerId === caller.id).sort((a, b) => a.createdAt - b.createdAt);
  for (const old of mine.slice(0, Math.max(0, mine.length - MAX_PENDING_PER_USER + 1))) dropPending(ctx, old.deviceId, true);

  const login = phoneNumber ? ({ method: 'code', phoneNumber } as const) : ({ method: 'qr' } as const);
  const link: PendingLink = {
    deviceId,
    ownerId: caller.id,
    proxyId: proxy?.id ?? null,
    login: login.method,
    phoneNumber,
    identity: null,
    expired: false,
    createdAt: Date.now(),
    started: Promise.resolve(),
    waiters: new Set(),
    cleanup: setTimeout(() => dropPending(ctx, deviceId, true), PENDING_TTL_MS),
  };
  link.cleanup.unref();
  link.started = ctx.gateway
    .startSession(deviceId, login, { proxy: proxy?.value ?? null })
    .then(() => notify(link))
    .catch((err: unknown) => {
      ctx.log('Starting a WhatsApp session failed', err);
      ctx.realtime.toUser(caller.id, 'unhandledRejection', { deviceId, message: 'Gagal membuat sesi WhatsApp' });
      dropPending(ctx, deviceId, true);
    });
  links.set(deviceId, link);
  await holdLink(ctx, deviceId);
  return { proxyId: link.proxyId };
}

export function removeClient(ctx: AppContext, caller: AuthUser, deviceId: string) {
  if (!ownPending(ctx, caller, deviceId)) throw new HttpError(404, CLIENT_NOT_FOUND);
  dropPending(ctx, deviceId, true);
  return { msg: 'Client removed' };
}

/** GET qr-new-client: the QR string (QR login) or the pairing code (number login) once it exists. */
export async function qrForClient(ctx: AppContext, caller: AuthUser, deviceId: string, signal?: AbortSignal) {
  const link = ownPending(ctx, caller, deviceId);
  if (!link) throw new HttpError(404, CLIENT_NOT_FOUND);
  await link.started;
  const shown = await waitFor(
    link,
    () => {
      if (!pendingLinks(ctx).has(deviceId) || link.expired || link.identity) return { gone: true as const };
      const snap = ctx.gateway.snapshot(deviceId);
      return snap && (snap.qr || snap.code) ? { gone: false as const, snap } : null;
    },
    QR_WAIT_MS,
    signal,
  );
  if (!shown) throw new HttpError(408, 'Request timed out');
  if (shown.gone) throw new HttpError(410, 'QR code sudah tidak berlaku, silahkan generate ulang');
  const { snap } = shown;
  const expiresAt = snap.expiresAt?.toISOString() ?? null;
  return link.login === 'code' ? { code: snap.code, expiresAt } : { qr: snap.qr, expiresAt };
}

const STATE_WORDS: Record<SessionPhase | 'reconnecting...', string> = {
  qr: 'QR',
  code: 'PAIRING',
  authenticated: 'AUTHENTICATED',
  expired: 'EXPIRED',
  connected: 'CONNECTED',
  disconnected: 'DISCONNECTED',
  conflict: 'CONFLICT',
  loggedOut: 'LOGGED_OUT',
  unknown: 'UNKNOWN',
  'reconnecting...': 'RECONNECTING',
};

/** GET client-state: the device's state in WhatsApp Web's words (`CONNECTED`…), plus the QR or code shown. */
export async function clientState(ctx: AppContext, caller: AuthUser, deviceId: string) {
  const link = ownPending(ctx, caller, deviceId);
  if (link) {
    const snap = ctx.gateway.snapshot(deviceId);
    const phase: SessionPhase = link.expired ? 'expired' : (snap?.phase ?? (link.login === 'qr' ? 'qr' : 'code'));
    return { state: STATE_WORDS[phase], qr: snap?.qr ?? null, code: snap?.code ?? null, expiresAt: snap?.expiresAt?.toISOString() ?? null };
  }
  const row = await accountByDevice(ctx, deviceId);
  if (!row || !mayReach(caller, row)) throw new HttpError(404, CLIENT_NOT_FOUND);
  const state = liveStateOf(ctx, row) ?? (row.state as SessionPhase | null) ?? 'unknown';
  return { state: STATE_WORDS[state as SessionPhase] ?? 'UNKNOWN', qr: null, code: null, expiresAt: null };
}

/** GET listen-message-created: answers once the phone has linked the device and it is ready, with who it is. */
export async function listenMessageCreated(ctx: AppContext, caller: AuthUser, deviceId: string, signal?: AbortSignal) {
  const link = ownPending(ctx, caller, deviceId);
  if (!link) {
    const row = await accountByDevice(ctx, deviceId);
    if (!row || !mayReach(caller, row)) throw new HttpError(404, CLIENT_NOT_FOUND);
    return { message: { clientid: row.clientid, phonenumber: row.phonenumber, pushname: row.pushname, server: row.server, serialized: row.serialized } };
  }
  // Ready once linked and past 'authenticated', so the account is saved with its real connection state.
  const ready = () => {
    if (link.expired || !pendingLinks(ctx).has(deviceId)) return false;
    return link.identity && ctx.gateway.snapshot(deviceId)?.phase !== 'authenticated' ? link.identity : null;
  };
  const identity = await waitFor(link, ready, QR_WAIT_MS, signal);
  if (identity === null) throw new HttpError(408, 'Request timed out');
  if (identity === false) throw new HttpError(410, 'QR code sudah tidak berlaku, silahkan generate ulang');
  return { message: { clientid: deviceId, ...identity } };
}

/** Links being saved right now: a second save of the same link answers as if it were already gone. */
const saving = new WeakSet<PendingLink>();

/**
 * POST save: stores the linked device as an account (or, with `reconnect`, moves an existing account
 * to it). Who the device is comes from the gateway, never from the body; the owner is the person
 * who linked it, or the existing account's owner when reconnecting.
 */
export async function saveAccount(ctx: AppContext, caller: AuthUser, body: z.infer<typeof SaveBody>) {
  const link = ownPending(ctx, caller, body.clientid);
  if (!link || saving.has(link)) throw new HttpError(404, CLIENT_NOT_FOUND);
  const identity = link.identity;
  if (!identity) throw new HttpError(409, 'Akun WhatsApp belum tertaut, silahkan scan QR code dulu');
  saving.add(link);
  try {
    return await storeLinkedAccount(ctx, caller, body, link, identity);
  } finally {
    saving.delete(link);
  }
}

async function storeLinkedAccount(ctx: AppContext, caller: AuthUser, body: z.infer<typeof SaveBody>, link: PendingLink, identity: DeviceIdentity) {
  const state = ctx.gateway.state(body.clientid) ?? 'connected';
  const fields = {
    deviceId: body.clientid,
    clientid: body.clientid,
    pushname: identity.pushname,
    phonenumber: identity.phonenumber,
    server: identity.server,
    serialized: identity.serialized,
    proxyId: link.proxyId,
    state,
    updatedAt: new Date(),
  };
  const target = body.reconnect ? await accountFor(ctx, caller, body.reconnect) : null;
  const saved = await transaction(ctx.db, async (tx) => {
    if (link.proxyId) await tx.update(proxies).set({ countUse: sql`${proxies.countUse} + 1` }).where(eq(proxies.id, link.proxyId));
    if (target) {
      await tx
        .update(whatsapps)
        .set({ ...fields, status: 'idle', reconnectCount: sql`${whatsapps.reconnectCount} + 1` })
        .where(eq(whatsapps.id, target.id));
      return (await one(tx.select().from(whatsapps).where(eq(whatsapps.id, target.id)).limit(1)))!;
    }
    const [created] = await tx.insert(whatsapps).values({ ...fields, userId: link.ownerId }).returning();
    return created!;
  });
  dropPending(ctx, body.clientid, false);
  if (target && target.deviceId !== body.clientid) await ctx.gateway.logout(target.deviceId);
  emitAccount(ctx, 'connection.update', saved);
  return { whatsapp: whatsappView(saved), msg: 'Akun WhatsApp berhasil disimpan' };
}
