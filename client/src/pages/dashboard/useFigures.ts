import { useEffect, useState } from 'react';
import { api } from '../../lib/http';
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
 * Dashboard figures: the cached ones (kept 10 years in localStorage) show at once, then every call
 * refreshes its tiles; a call that fails shows 0 in its tiles.
 */
export function useFigures(cacheKey: string, keys: string[], sources: FigureSource[]): { figures: Figures; fresh: boolean } {
  const [figures, setFigures] = useState<Figures>(() => ({ ...Object.fromEntries(keys.map((k) => [k, 0])), ...(readCache(cacheKey) ?? {}) }));
  const [fresh, setFresh] = useState(false);

  useEffect(() => {
    let live = true;
    const next: Figures = {};
    void Promise.all(
      sources.map(async (source) => {
        let got: Figures;
        try {
          got = source.pick((await api<Record<string, unknown>>(source.path)) ?? {});
        } catch {
          got = Object.fromEntries(Object.keys(source.pick({})).map((k) => [k, 0]));
        }
        Object.assign(next, got);
        if (live) setFigures((f) => ({ ...f, ...got }));
      }),
    ).then(() => {
      if (!live) return;
      writeCache(cacheKey, next);
      setFresh(true);
    });
    return () => {
      live = false;
    };
    // The sources are fixed for a cache key.
  }, [cacheKey]);

  return { figures, fresh };
}
