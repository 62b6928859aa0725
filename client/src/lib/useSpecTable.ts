import { useTable } from '@refinedev/antd';
import type { BaseRecord, CrudFilter, HttpError } from '@refinedev/core';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { usePageInRange } from '../components/Pager';

type Fixed = Record<string, string | number | null | undefined>;

interface Options {
  resource: string;
  /** Query parameters of the address and the list call's name for each (`{ s: 'search' }`, `{ status: 'status' }`). */
  keys: Readonly<Record<string, string>>;
  /** Filters the address does not carry (`user_id` from the role, `synced`). */
  fixed?: Fixed;
}

/** Filters with a value, as the data provider passes them on as query parameters. */
export function toFilters(values: Fixed): CrudFilter[] {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([field, value]) => ({ field, operator: 'eq' as const, value: String(value) }));
}

/**
 * Refine's `useTable` on the spec's address form: the page lives in `?page` and each filter in its own
 * parameter (Refine's own sync would write `currentPage`, `pageSize` and `filters[0][field]`). The
 * address is the one source: changing it changes the table's page and filters.
 */
export function useSpecTable<T extends BaseRecord>({ resource, keys, fixed = {} }: Options) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const values = useMemo(() => Object.fromEntries(Object.keys(keys).map((k) => [k, params.get(k) ?? ''])) as Record<string, string>, [keys, params]);
  const filters = toFilters({ ...Object.fromEntries(Object.entries(values).map(([k, v]) => [keys[k] ?? k, v])), ...fixed });
  const filterKey = JSON.stringify(filters);

  const table = useTable<T, HttpError>({
    resource,
    syncWithLocation: false,
    pagination: { currentPage: page, pageSize: 10 },
    filters: { initial: filters, defaultBehavior: 'replace' },
    // The page shows its own alert with the spec's fallback.
    errorNotification: false,
  });
  const { setCurrentPage, setFilters } = table;

  useEffect(() => setCurrentPage(page), [page, setCurrentPage]);
  useEffect(() => {
    setFilters(JSON.parse(filterKey) as CrudFilter[], 'replace');
  }, [filterKey, setFilters]);

  /** Writes the page into the address (no reload, no new history entry). */
  const setPage = useCallback(
    (p: number) => {
      const next = new URLSearchParams(params);
      next.set('page', String(p));
      setParams(next, { replace: true });
    },
    [params, setParams],
  );

  /** Sets one filter parameter (empty removes it) and goes back to page 1. */
  const setParam = useCallback(
    (key: string, value: string) => {
      const next = new URLSearchParams(params);
      next.set('page', '1');
      if (value.trim()) next.set(key, value.trim());
      else next.delete(key);
      setParams(next, { replace: true });
    },
    [params, setParams],
  );

  const answer = table.tableQuery.data as { totalPages?: number } | undefined;
  const totalPages = Math.max(1, answer?.totalPages ?? table.pageCount ?? 1);
  usePageInRange(page, `${page}|${filterKey}`, table.tableQuery.isFetching ? undefined : answer?.totalPages, table.tableQuery.dataUpdatedAt, setPage);

  return { ...table, page, totalPages, setPage, setParam, values };
}
