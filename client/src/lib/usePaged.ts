import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, errorText, query } from './http';

export interface PagedAnswer<T> {
  data: T[];
  meta: { page?: number; pageSize?: number; total?: number; totalPages: number };
}

/**
 * A server-paged list whose page lives in `?page` (written without a reload). `params` are extra
 * query parameters for the call; changing them refetches.
 */
export function usePaged<T>(path: string | null, params: Record<string, string | number | null | undefined> = {}, fallback = 'Internal server error') {
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const [rows, setRows] = useState<T[]>([]);
  const [totalPages, setTotalPages] = useState(1);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(params);
  const seq = useRef(0);

  useEffect(() => {
    if (!path) return;
    const mine = ++seq.current;
    setLoading(true);
    api<PagedAnswer<T>>(`${path}${query({ page, ...(JSON.parse(key) as Record<string, string>) })}`, { fallback })
      .then((res) => {
        if (mine !== seq.current) return;
        setRows(res?.data ?? []);
        setTotalPages(res?.meta?.totalPages ?? 1);
        setTotal(res?.meta?.total ?? res?.data?.length ?? 0);
        setError(null);
      })
      .catch((err: unknown) => {
        if (mine !== seq.current) return;
        setRows([]);
        setError(errorText(err, fallback));
      })
      .finally(() => mine === seq.current && setLoading(false));
  }, [path, page, key, tick, fallback]);

  const setPage = useCallback(
    (p: number) => {
      const next = new URLSearchParams(search);
      next.set('page', String(p));
      setSearch(next, { replace: true });
    },
    [search, setSearch],
  );

  const reload = useCallback(() => setTick((t) => t + 1), []);

  return { rows, setRows, page, totalPages, total, loading, error, setPage, reload };
}

export type PagedList<T> = ReturnType<typeof usePaged<T>>;
