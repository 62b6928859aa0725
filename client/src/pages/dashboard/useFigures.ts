import { useCustom } from '@refinedev/core';
import { useEffect, useRef, useState } from 'react';
import { TEN_YEARS_S } from '../../lib/cookies';
import { useLive } from '../../providers/live';

export interface FigureSource {
  /** The call under /api. */
  path: string;
  /** The figures this call gives, by tile key. */
  pick: (body: Record<string, unknown>) => Record<string, number>;
}

type Figures = Record<string, number>;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || 0);
export const field = (name: string) => (body: Record<string, unknown>) => num(body[name]);

function readCache(key: string): Figures | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const cached = JSON.parse(raw) as { expiresAt: number; figures: Figures };
    return cached.expiresAt > Date.now() ? cached.figures : null;
  } catch {
    return null;
  }
}

function writeCache(key: string, figures: Figures): void {
  try {
    localStorage.setItem(key, JSON.stringify({ expiresAt: Date.now() + TEN_YEARS_S * 1000, figures }));
  } catch {
    // Storage full or disabled: the figures still show, only not at once next time.
  }
}

/** Events that can move a dashboard figure: counters, account states, balances and number rows. */
const QUIET_EVENTS = new Set(['progressing', 'sending', 'attempting', 'waiting', 'phonenumber-import', 'settings']);
/** At most one refresh of the figures per this many ms, however busy the engine is. */
export const LIVE_REFRESH_MS = 1000;

/**
 * One source's figures: what its call answered, nothing while it runs; `failed` when the call failed (its
 * tiles say so instead of showing a 0 nobody counted); `at` is when that answer came.
 */
function useSource(source: FigureSource): { figures: Figures | null; failed: string[]; at: number; refetch: () => unknown } {
  const { query } = useCustom<Record<string, unknown>>({ url: source.path, method: 'get', queryOptions: { retry: false }, errorNotification: false });
  const refetch = query.refetch;
  // A failed refresh after a good answer still counts as failed: the old figure may no longer be true.
  if (query.isError) return { figures: null, failed: Object.keys(source.pick({})), at: query.errorUpdatedAt, refetch };
  return { figures: query.data ? source.pick(query.data.data ?? {}) : null, failed: [], at: query.dataUpdatedAt, refetch };
}

/**
 * Dashboard figures: the cached ones (kept 10 years in localStorage) show at once, then every call
 * refreshes its tiles; a call that fails marks its tiles `failed`. Until a figure is known (a first visit,
 * its call still running) it is missing from the answer. The sources are fixed for a dashboard,
 * so each one's useCustom runs in the same order on every render.
 *
 * `channel` ('admin', or a member's own id): the server's events there carry one row's absolute values,
 * not the dashboard's totals, so an event asks the calls again (at most once a second) rather than
 * patching a figure, and the tiles follow blasts, links and payments without a reload.
 */
export function useFigures(cacheKey: string, sources: FigureSource[], channel?: string): { figures: Figures; failed: ReadonlySet<string>; fresh: boolean } {
  // A figure neither cached nor answered yet is absent (its tile shows that it is loading, not a 0).
  const [cached] = useState<Figures>(() => readCache(cacheKey) ?? {});
  const answers = sources.map(useSource);
  const fresh = answers.every((a) => a.figures !== null);
  const failed = new Set(answers.flatMap((a) => a.failed));
  const figures: Figures = Object.assign({}, cached, ...answers.map((a) => a.figures).filter((f) => f !== null));
  for (const key of failed) delete figures[key];
  // Once every call has answered, the cache is written again for each new answer.
  const answeredAt = fresh ? answers.map((a) => a.at).join(',') : null;
  useEffect(() => {
    if (answeredAt) writeCache(cacheKey, Object.assign({}, ...answers.map((a) => a.figures)) as Figures);
  }, [cacheKey, answeredAt]);

  const refetchAll = useRef<() => void>(() => undefined);
  refetchAll.current = () => answers.forEach((a) => void a.refetch());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const last = useRef(0);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  useLive(channel, (msg) => {
    if (QUIET_EVENTS.has(msg.event) || timer.current) return;
    const wait = Math.max(0, last.current + LIVE_REFRESH_MS - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      refetchAll.current();
    }, wait);
  });
  return { figures, failed, fresh };
}
