import { useCustom } from '@refinedev/core';
import { useEffect, useState } from 'react';
import { TEN_YEARS_S } from '../../lib/cookies';

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

/**
 * One source's figures: what its call answered, zeros when it failed, nothing while it runs; `at` is
 * when that answer came (a new answer, a new time).
 */
function useSource(source: FigureSource): { figures: Figures | null; at: number } {
  const { query } = useCustom<Record<string, unknown>>({ url: source.path, method: 'get', queryOptions: { retry: false }, errorNotification: false });
  if (query.isError) return { figures: Object.fromEntries(Object.keys(source.pick({})).map((k) => [k, 0])), at: query.errorUpdatedAt };
  return { figures: query.data ? source.pick(query.data.data ?? {}) : null, at: query.dataUpdatedAt };
}

/**
 * Dashboard figures: the cached ones (kept 10 years in localStorage) show at once, then every call
 * refreshes its tiles; a call that fails shows 0 in its tiles. Until a figure is known (a first visit,
 * its call still running) it is missing from the answer. The sources are fixed for a dashboard,
 * so each one's useCustom runs in the same order on every render.
 */
export function useFigures(cacheKey: string, sources: FigureSource[]): { figures: Figures; fresh: boolean } {
  // A figure neither cached nor answered yet is absent (its tile shows that it is loading, not a 0).
  const [cached] = useState<Figures>(() => readCache(cacheKey) ?? {});
  const answers = sources.map(useSource);
  const fresh = answers.every((a) => a.figures !== null);
  const figures: Figures = Object.assign({}, cached, ...answers.map((a) => a.figures).filter((f) => f !== null));
  // Once every call has answered, the cache is written again for each new answer.
  const answeredAt = fresh ? answers.map((a) => a.at).join(',') : null;
  useEffect(() => {
    if (answeredAt) writeCache(cacheKey, Object.assign({}, ...answers.map((a) => a.figures)) as Figures);
  }, [cacheKey, answeredAt]);
  return { figures, fresh };
}
