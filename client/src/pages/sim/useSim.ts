import { useCallback, useEffect, useState } from 'react';
import { ApiError, api } from '../../lib/http';
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

/** A call to the simulated phone's API, as the signed-in admin or dev (or anonymously on an open demo). */
export function simCall<T>(path: string, body?: unknown): Promise<T> {
  return api<T>(`/sim${path}`, { anonymous: !getToken(), method: body === undefined ? 'GET' : 'POST', body, fallback: 'Internal server error' });
}

/** The server refused the simulated phone to this visitor (not signed in as admin or dev). */
export const isSimRefused = (err: unknown) => err instanceof ApiError && (err.statusCode === 401 || err.statusCode === 403);

/** Re-reads a value every `ms` while mounted. */
export function usePolling<T>(load: (() => Promise<T>) | null, ms: number): { value: T | null; error: unknown; refresh: () => void } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    if (!load) return;
    let live = true;
    const read = () =>
      void load()
        .then((v) => {
          if (!live) return;
          setValue(v);
          setError(null);
        })
        .catch((err: unknown) => live && setError(err));
    read();
    const t = window.setInterval(read, ms);
    return () => {
      live = false;
      window.clearInterval(t);
    };
  }, [load, ms, tick]);
  return { value, error, refresh };
}
