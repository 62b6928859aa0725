import { useCallback, useEffect, useState } from 'react';
import { api } from '../../lib/http';

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

/** A call to the simulated phone's public API. */
export function simCall<T>(path: string, body?: unknown): Promise<T> {
  return api<T>(`/sim${path}`, { anonymous: true, method: body === undefined ? 'GET' : 'POST', body, fallback: 'Internal server error' });
}

/** Re-reads a value every `ms` while mounted. */
export function usePolling<T>(load: (() => Promise<T>) | null, ms: number): { value: T | null; refresh: () => void } {
  const [value, setValue] = useState<T | null>(null);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    if (!load) return;
    let live = true;
    const read = () => void load().then((v) => live && setValue(v)).catch(() => undefined);
    read();
    const t = window.setInterval(read, ms);
    return () => {
      live = false;
      window.clearInterval(t);
    };
  }, [load, ms, tick]);
  return { value, refresh };
}
