import type { BaseRecord, CrudFilter, HttpError } from '@refinedev/core';
import { useTranslate } from '@refinedev/core';
import { useTable } from '@refinedev/antd';
import { Alert, Table } from 'antd';
import type { TableProps } from 'antd';
import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { Pager, usePageInRange } from './Pager';

type Params = Record<string, string | number | null | undefined>;

interface Options {
  resource: string;
  /** Query parameters of the list call (`search`, `s`, `status`, `user_id`); empty ones are left out. */
  params?: Params;
  /** The spec's message when the server answers without one ('Error fetching Proxy list'). */
  fallback: string;
  /** False until the call can be made (no signed-in user yet). */
  enabled?: boolean;
}

const toFilters = (params: Params): CrudFilter[] =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([field, value]) => ({ field, operator: 'eq' as const, value }));

/**
 * Refine's `useTable` on the spec's list form: the page lives in `?page` (not Refine's
 * `currentPage`/`pageSize`), the filters are the spec's query parameters, and the server pages by 10.
 */
export function useListTable<T extends BaseRecord>({ resource, params = {}, fallback, enabled = true }: Options) {
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const table = useTable<T, HttpError>({
    resource,
    syncWithLocation: false,
    pagination: { currentPage: page, pageSize: 10, mode: 'server' },
    filters: { permanent: toFilters(params), mode: 'server' },
    sorters: { mode: 'off' },
    meta: { fallback },
    queryOptions: { enabled },
    successNotification: false,
    errorNotification: false,
  });
  const { currentPage, setCurrentPage } = table;
  // Back/forward and a search that starts again from page 1 move `?page`; the table follows it.
  useEffect(() => {
    if (currentPage !== page) setCurrentPage(page);
  }, [page, currentPage, setCurrentPage]);

  const setPage = useCallback(
    (p: number) => {
      const next = new URLSearchParams(search);
      next.set('page', String(p));
      setSearch(next, { replace: true });
    },
    [search, setSearch],
  );

  const result = table.tableQuery.data as { totalPages?: number; extra?: Record<string, unknown> } | undefined;
  usePageInRange(page, `${page}|${JSON.stringify(params)}`, table.tableQuery.isFetching ? undefined : result?.totalPages, table.tableQuery.dataUpdatedAt, setPage);
  return {
    ...table,
    page,
    setPage,
    totalPages: result?.totalPages ?? Math.max(1, table.pageCount),
    /** What the list answer carries besides its rows (the referral list's rupiah `total`). */
    extra: result?.extra ?? {},
    error: table.tableQuery.error ? table.tableQuery.error.message || fallback : null,
  };
}

export type ListTableState<T extends BaseRecord> = ReturnType<typeof useListTable<T>>;

type Props<T extends BaseRecord> = Omit<TableProps<T>, 'pagination' | 'rowKey' | 'onChange'> & {
  list: ListTableState<T>;
  /** Spins the table besides while the list loads (a search about to run). */
  busy?: boolean;
  /** Shown between the error and the table. */
  notice?: React.ReactNode;
};

/**
 * The list's error, the antd Table ('Kosong' when empty) and the 'Page X of Y' pager. A screen with live
 * rows passes them as `dataSource` (the fetched page with the live values over it).
 */
export function ListTable<T extends BaseRecord>({ list, busy, notice, ...rest }: Props<T>) {
  const t = useTranslate();
  const { tableProps } = list;
  return (
    <>
      {list.error && <Alert type="error" showIcon message={list.error} style={{ marginBottom: 16 }} />}
      {notice}
      <Table<T>
        {...tableProps}
        loading={Boolean(busy) || list.tableQuery.isFetching}
        rowKey="id"
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: t('shared.empty') }}
        {...rest}
      />
      <Pager page={list.page} totalPages={list.totalPages} onChange={list.setPage} />
    </>
  );
}
