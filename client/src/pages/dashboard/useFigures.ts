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

/** One source's figures: what its call answered, zeros when it failed, nothing while it runs. */
function useSource(source: FigureSource): Figures | null {
  const { query } = useCustom<Record<string, unknown>>({ url: source.path, method: 'get', queryOptions: { retry: false }, errorNotification: false });
  if (query.isError) return Object.fromEntries(Object.keys(source.pick({})).map((k) => [k, 0]));
  return query.data ? source.pick(query.data.data ?? {}) : null;
}

/**
 * Dashboard figures: the cached ones (kept 10 years in localStorage) show at once, then every call
 * refreshes its tiles; a call that fails shows 0 in its tiles. The sources are fixed for a dashboard,
 * so each one's useCustom runs in the same order on every render.
 */
export function useFigures(cacheKey: string, keys: string[], sources: FigureSource[]): { figures: Figures; fresh: boolean } {
  const [cached] = useState<Figures>(() => ({ ...Object.fromEntries(keys.map((k) => [k, 0])), ...(readCache(cacheKey) ?? {}) }));
  const answers = sources.map(useSource);
  const fresh = answers.every((a) => a !== null);
  const figures: Figures = Object.assign({}, cached, ...answers.filter((a) => a !== null));
  const settled = fresh ? JSON.stringify(Object.assign({}, ...answers)) : null;
  useEffect(() => {
    if (settled) writeCache(cacheKey, JSON.parse(settled) as Figures);
  }, [cacheKey, settled]);
  return { figures, fresh };
}
