import { useCustom, useCustomMutation, type HttpError } from '@refinedev/core';
import { getToken } from '../../lib/session';

export interface SimDevice {
  deviceId: string;
  phase: string;
  identity: { phonenumber: string; pushname: string } | null;
  qr: string | null;
  code: string | null;
  expiresAt: string | null;
  lastSent: { messageId: string; to: string; text: string; date: string } | null;
}

export interface SimMessage {
  id: string;
  from: string;
  text: string;
  date: string;
  media: string | null;
  buttons: Array<{ id: string; title: string; type: string }>;
  revoked: boolean;
}

/** How often the phone re-reads its devices and the open inbox. */
const POLL_MS = 2000;

/** The simulated phone's calls go as the signed-in admin or dev, or anonymously on an open demo. */
const simMeta = () => ({ anonymous: !getToken(), fallback: 'Internal server error' });

/** The server refused the simulated phone to this visitor (not signed in as admin or dev). */
export const isSimRefused = (err: unknown) => {
  const status = (err as { statusCode?: number } | null | undefined)?.statusCode;
  return status === 401 || status === 403;
};

/** The devices the simulator knows, re-read every two seconds. */
export function useSimDevices() {
  const { query, result } = useCustom<{ devices: SimDevice[] }>({
    url: '/sim/devices',
    method: 'get',
    meta: simMeta(),
    queryOptions: { refetchInterval: POLL_MS, retry: false },
    errorNotification: false,
  });
  // The last list stays on screen when one read fails, as a phone would keep showing it.
  return { devices: query.data ? (result.data.devices ?? []) : null, error: query.error as HttpError | null, refetch: query.refetch };
}

/**
 * Whether this visitor may use the simulated phone (admin, dev, or an open demo): one read of its
 * devices, true when answered, false when refused, null until known (or when not `enabled`).
 */
export function useSimUsable(enabled: boolean): boolean | null {
  const { query } = useCustom<{ devices: SimDevice[] }>({
    url: '/sim/devices',
    method: 'get',
    meta: simMeta(),
    queryOptions: { enabled, retry: false, staleTime: 60_000 },
    errorNotification: false,
  });
  if (!enabled) return null;
  if (query.isSuccess) return true;
  return isSimRefused(query.error) ? false : null;
}

/** A number's inbox (8 to 15 digits), re-read every two seconds while one is typed in. */
export function useSimInbox(number: string) {
  const valid = /^\d{8,15}$/.test(number);
  const { query, result } = useCustom<{ messages: SimMessage[] }>({
    url: `/sim/inbox/${encodeURIComponent(number)}`,
    method: 'get',
    meta: simMeta(),
    queryOptions: { enabled: valid, refetchInterval: POLL_MS, retry: false },
    errorNotification: false,
  });
  return { enabled: valid, messages: valid && query.data ? (result.data.messages ?? []) : null, refetch: query.refetch };
}

/** One action on the phone (scan, pair, connection, revoke, reply): a POST under /sim. */
export function useSimAction() {
  const { mutateAsync } = useCustomMutation();
  return (path: string, values: Record<string, unknown>) =>
    mutateAsync({ url: `/sim${path}`, method: 'post', values, meta: simMeta(), errorNotification: false });
}
