import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, errorText } from '../../lib/http';

export type Step = 'idle' | 'generating' | 'shown' | 'expired' | 'authenticated';
export type Mode = 'qr' | 'code';

/** Spec constants: generation wait 15 s, QR 60 s, pairing code 90 s, QR call time-out 120 s. */
export const GENERATE_WAIT_S = 15;
export const QR_COUNTDOWN_S = 60;
export const CODE_COUNTDOWN_S = 90;
export const QR_TIMEOUT_MS = 120_000;

/** 'id-{timestamp}-{random 0-9999}'. */
export function makeWhatsappId(): string {
  return `id-${Date.now()}-${Math.floor(Math.random() * 10000)}`;
}

export interface LinkedIdentity {
  clientid: string;
  phonenumber: string;
  pushname: string;
  server: string;
  serialized: string;
}

interface ClientState {
  state: string;
  qr: string | null;
  code: string | null;
}

/**
 * The linking flow of /whatsapp/create: create the client (proxyId), fetch the QR or pairing code,
 * poll the client state (the QR rotates), wait for the 'message created' answer, then hand the
 * identity to `onLinked`.
 */
export function useLinking(deviceId: string, onLinked: (identity: LinkedIdentity, proxyId: number | null) => void) {
  const [step, setStep] = useState<Step>('idle');
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState<string | null>(null);
  const [deadline, setDeadline] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<string | null>(null);
  const run = useRef<AbortController | null>(null);
  const pending = useRef(false);
  const linked = useRef(onLinked);
  linked.current = onLinked;

  const stop = useCallback(() => {
    run.current?.abort();
    run.current = null;
  }, []);

  // One countdown for both the generating wait and the code's validity, from a deadline so a
  // throttled background tab still expires on time.
  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000));
  const countFrom = (s: number) => {
    const at = Date.now();
    setNow(at);
    setDeadline(at + s * 1000);
  };
  useEffect(() => {
    if (step !== 'generating' && step !== 'shown') return;
    const t = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(t);
  }, [step]);
  useEffect(() => {
    if (step === 'shown' && seconds === 0) {
      stop();
      setStep('expired');
    }
  }, [step, seconds, stop]);

  const poll = useCallback((signal: AbortSignal) => {
    const tick = async () => {
      while (!signal.aborted) {
        await new Promise((r) => window.setTimeout(r, 1000));
        if (signal.aborted) return;
        try {
          const s = await api<ClientState>(`/admin/whatsapp/client-state/${encodeURIComponent(deviceId)}`, { signal });
          if (s.qr) setQr(s.qr);
          if (s.state === 'EXPIRED') {
            setStep('expired');
            return;
          }
        } catch {
          // The next tick tries again; the long poll decides success.
        }
      }
    };
    void tick();
  }, [deviceId]);

  const generate = useCallback(
    async (mode: Mode, phoneNumber: string, previousDeviceId: string | null, userId: number | undefined) => {
      stop();
      const controller = new AbortController();
      run.current = controller;
      const { signal } = controller;
      setError(null);
      setQr(null);
      setCode(null);
      setStep('generating');
      countFrom(GENERATE_WAIT_S);
      let proxyId: number | null = null;
      try {
        const created = await api<{ proxyId: number | null }>('/admin/whatsapp/new-client', {
          method: 'POST',
          body: { deviceId, userId, previousDeviceId, phoneNumber: mode === 'code' ? phoneNumber : undefined },
          fallback: 'Error creating client',
          signal,
        });
        proxyId = created.proxyId;
        pending.current = true;
      } catch (err) {
        if (signal.aborted) return;
        setError(errorText(err, 'Error creating client'));
        setStep('idle');
        return;
      }
      const timer = window.setTimeout(() => controller.abort(), QR_TIMEOUT_MS);
      try {
        const shown = await api<{ qr?: string | null; code?: string | null }>(`/admin/whatsapp/qr-new-client/${encodeURIComponent(deviceId)}`, {
          fallback: 'Error fetching QR code',
          signal,
        });
        window.clearTimeout(timer);
        if (mode === 'code') setCode(shown.code ?? null);
        else setQr(shown.qr ?? null);
        countFrom(mode === 'code' ? CODE_COUNTDOWN_S : QR_COUNTDOWN_S);
        setStep('shown');
      } catch (err) {
        window.clearTimeout(timer);
        if (run.current !== controller) return;
        setError(signal.aborted ? 'Request timed out' : errorText(err, 'Error fetching QR code'));
        setStep(err instanceof ApiError && err.statusCode === 410 ? 'expired' : 'idle');
        return;
      }
      poll(signal);
      try {
        const res = await api<{ message: LinkedIdentity }>(`/admin/whatsapp/listen-message-created/${encodeURIComponent(deviceId)}`, { signal });
        if (signal.aborted) return;
        setStep('authenticated');
        controller.abort();
        linked.current(res.message, proxyId);
      } catch (err) {
        if (run.current !== controller || signal.aborted) return;
        if (err instanceof ApiError && (err.statusCode === 410 || err.statusCode === 408)) setStep('expired');
        else setError(errorText(err));
      }
    },
    [deviceId, poll, stop],
  );

  /** The device became an account: nothing to clean up on leaving. */
  const saved = useCallback(() => {
    pending.current = false;
  }, []);

  // Leaving the page ends a linking session that was never saved.
  useEffect(
    () => () => {
      stop();
      if (pending.current) {
        void api('/admin/whatsapp/remove-client', { method: 'POST', body: { deviceId } }).catch(() => undefined);
      }
    },
    [deviceId, stop],
  );

  return { step, qr, code, seconds, error, setError, generate, saved };
}
