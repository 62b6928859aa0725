import type { AppContext } from '../context';
import type { DeviceIdentity } from '../gateway/types';

/** A device being linked from /whatsapp/create, not yet saved as an account. */
export interface PendingLink {
  deviceId: string;
  ownerId: number;
  proxyId: number | null;
  login: 'qr' | 'code';
  phoneNumber: string | null;
  /** Set once the phone has linked the device. */
  identity: DeviceIdentity | null;
  expired: boolean;
  createdAt: number;
  /** Resolves when the first QR or pairing code exists (or the start failed). */
  started: Promise<void>;
  /** Long polls waiting for this link to change. */
  waiters: Set<() => void>;
  cleanup: NodeJS.Timeout;
}

/** Linking sessions a user may have open at once; starting one more drops the oldest. */
export const MAX_PENDING_PER_USER = 5;
/** An unsaved linking session is forgotten after this long. */
export const PENDING_TTL_MS = 15 * 60_000;

const registries = new WeakMap<AppContext, Map<string, PendingLink>>();

/** The linking sessions of one running app. */
export function pendingLinks(ctx: AppContext): Map<string, PendingLink> {
  let map = registries.get(ctx);
  if (!map) {
    map = new Map();
    registries.set(ctx, map);
  }
  return map;
}

export function notify(link: PendingLink): void {
  for (const wake of [...link.waiters]) wake();
}

export function dropPending(ctx: AppContext, deviceId: string, closeSession: boolean): void {
  const link = pendingLinks(ctx).get(deviceId);
  if (!link) return;
  clearTimeout(link.cleanup);
  pendingLinks(ctx).delete(deviceId);
  notify(link);
  if (closeSession) ctx.gateway.removeSession(deviceId);
}

/**
 * Waits until `ready()` gives a value, re-checking whenever the link changes, for at most `ms`.
 * Resolves null on time-out or when the caller hangs up.
 */
export function waitFor<T>(link: PendingLink, ready: () => T | null, ms: number, signal?: AbortSignal): Promise<T | null> {
  return new Promise((resolve) => {
    const first = ready();
    if (first !== null) return resolve(first);
    const finish = (value: T | null) => {
      clearTimeout(timer);
      link.waiters.delete(check);
      signal?.removeEventListener('abort', abort);
      resolve(value);
    };
    const check = () => {
      const value = ready();
      if (value !== null) finish(value);
    };
    const abort = () => finish(null);
    const timer = setTimeout(() => finish(null), ms);
    timer.unref();
    link.waiters.add(check);
    signal?.addEventListener('abort', abort);
  });
}
