import { useCustom, useCustomMutation, useDataProvider, useTranslate, type HttpError } from '@refinedev/core';
import { useCallback, useEffect, useRef, useState } from 'react';

export type Step = 'idle' | 'generating' | 'shown' | 'expired' | 'authenticated';
export type Mode = 'qr' | 'code';

/** Spec constants: generation wait 15 s, QR 60 s, pairing code 90 s, QR call time-out 120 s. */
export const GENERATE_WAIT_S = 15;
export const QR_COUNTDOWN_S = 60;
export const CODE_COUNTDOWN_S = 90;
export const QR_TIMEOUT_MS = 120_000;
const POLL_MS = 1000;

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

/** One-shot reads: never refetched on their own, never kept after the screen closes. */
const ONCE = { retry: false, gcTime: 0, staleTime: Infinity, refetchOnWindowFocus: false, refetchOnReconnect: false } as const;

/**
 * The linking flow of /whatsapp/create through the data provider: create the client (proxyId), fetch
 * the QR or pairing code, poll the client state (the QR rotates), wait for the 'message created'
 * answer, then hand the identity to `onLinked`. Each Generate is a new run, so its reads are fresh.
 */
export function useLinking(deviceId: string, onLinked: (identity: LinkedIdentity, proxyId: number | null) => void) {
  const t = useTranslate();
  const dataProvider = useDataProvider();
  const [step, setStep] = useState<Step>('idle');
  const [mode, setMode] = useState<Mode>('qr');
  const [run, setRun] = useState(0);
  const [fetching, setFetching] = useState(false);
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState<string | null>(null);
  const [deadline, setDeadline] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<string | null>(null);
  const runRef = useRef(0);
  const proxyId = useRef<number | null>(null);
  const pending = useRef(false);
  const linked = useRef(onLinked);
  linked.current = onLinked;
  const { mutateAsync: createClient } = useCustomMutation<{ proxyId: number | null }>();

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
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [step]);
  useEffect(() => {
    if (step === 'shown' && seconds === 0) setStep('expired');
  }, [step, seconds]);

  // Each read's key names its run and whether it is wanted now: a read nobody wants any more (the code
  // expired, a new Generate, the 120 s time-out) loses its observer and is cut off, so the server ends
  // the session it was holding, as the spec's aborting client does.
  const shown = useCustom<{ qr?: string | null; code?: string | null }>({
    url: `/admin/whatsapp/qr-new-client/${encodeURIComponent(deviceId)}`,
    method: 'get',
    meta: { run, wanted: fetching },
    queryOptions: { ...ONCE, enabled: fetching },
    errorNotification: false,
  }).query;
  const state = useCustom<ClientState>({
    url: `/admin/whatsapp/client-state/${encodeURIComponent(deviceId)}`,
    method: 'get',
    meta: { run, wanted: step === 'shown' },
    queryOptions: { retry: false, gcTime: 0, enabled: step === 'shown', refetchInterval: POLL_MS },
    errorNotification: false,
  }).query;
  const created = useCustom<{ message: LinkedIdentity }>({
    url: `/admin/whatsapp/listen-message-created/${encodeURIComponent(deviceId)}`,
    method: 'get',
    meta: { run, wanted: step === 'shown' },
    queryOptions: { ...ONCE, enabled: step === 'shown' },
    errorNotification: false,
  }).query;

  // The code (or QR) arrived, or its call failed; 120 s without an answer is a time-out.
  useEffect(() => {
    if (!fetching) return;
    if (shown.data) {
      const answer = shown.data.data;
      if (mode === 'code') setCode(answer.code ?? null);
      else setQr(answer.qr ?? null);
      countFrom(mode === 'code' ? CODE_COUNTDOWN_S : QR_COUNTDOWN_S);
      setStep('shown');
      setFetching(false);
    } else if (shown.error) {
      setError(shown.error.message || t('whatsapp.create.qrError'));
      setStep(shown.error.statusCode === 410 ? 'expired' : 'idle');
      setFetching(false);
    }
  }, [fetching, shown.data, shown.error, mode, t]);
  useEffect(() => {
    if (!fetching) return;
    const id = window.setTimeout(() => {
      setError(t('whatsapp.create.timedOut'));
      setStep('idle');
      setFetching(false);
    }, QR_TIMEOUT_MS);
    return () => window.clearTimeout(id);
  }, [fetching, t]);

  // The QR rotates while it is shown; the server may also say the session expired.
  useEffect(() => {
    if (step !== 'shown' || !state.data) return;
    const s = state.data.data;
    if (s.qr) setQr(s.qr);
    if (s.state === 'EXPIRED') setStep('expired');
  }, [step, state.data]);

  // The phone linked: the account is ready to be saved.
  useEffect(() => {
    if (step !== 'shown') return;
    if (created.data) {
      setStep('authenticated');
      linked.current(created.data.data.message, proxyId.current);
    } else if (created.error) {
      if (created.error.statusCode === 410 || created.error.statusCode === 408) setStep('expired');
      else setError(created.error.message || t('whatsapp.create.readError'));
    }
  }, [step, created.data, created.error, t]);

  const generate = useCallback(
    async (nextMode: Mode, phoneNumber: string, previousDeviceId: string | null, userId: number | undefined) => {
      const mine = ++runRef.current;
      setRun(mine);
      setMode(nextMode);
      setFetching(false);
      setError(null);
      setQr(null);
      setCode(null);
      setStep('generating');
      countFrom(GENERATE_WAIT_S);
      try {
        const { data } = await createClient({
          url: '/admin/whatsapp/new-client',
          method: 'post',
          values: { deviceId, userId, previousDeviceId, phoneNumber: nextMode === 'code' ? phoneNumber : undefined },
          // The linking screen shows a refusal itself, where the code would have appeared.
          errorNotification: false,
        });
        if (runRef.current !== mine) return;
        proxyId.current = data.proxyId;
        pending.current = true;
        setFetching(true);
      } catch (err) {
        if (runRef.current !== mine) return;
        setError((err as HttpError).message || t('whatsapp.createClientError'));
        setStep('idle');
      }
    },
    [createClient, deviceId, t],
  );

  /** The device became an account: nothing to clean up on leaving. */
  const saved = useCallback(() => {
    pending.current = false;
  }, []);

  // Leaving the page ends a linking session that was never saved.
  useEffect(
    () => () => {
      if (!pending.current) return;
      const custom = dataProvider().custom;
      void custom?.({ url: '/admin/whatsapp/remove-client', method: 'post', payload: { deviceId } }).catch(() => undefined);
    },
    [dataProvider, deviceId],
  );

  return { step, qr, code, seconds, error, setError, generate, saved };
}
