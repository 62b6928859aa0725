import type { BaseRecord, CrudFilter, HttpError } from '@refinedev/core';
import { useTranslate } from '@refinedev/core';
import type { useTable } from '@refinedev/antd';
import { Table } from 'antd';
import type { TableProps } from 'antd';
import { useCallback } from 'react';
import { Pager, usePageInRange } from './Pager';

/** What Refine's antd `useTable` gives a screen (its page and filters follow the address, providers/router.ts). */
export type TableState<T extends BaseRecord> = ReturnType<typeof useTable<T, HttpError>>;

/** The list answer's page count and what else it carries (the referral list's rupiah `total`). */
interface Answer {
  totalPages?: number;
  extra?: Record<string, unknown>;
}

/** Filters with a value, as the data provider passes them on as query parameters (`user_id`, `synced`). */
export function toFilters(values: Record<string, string | number | null | undefined>): CrudFilter[] {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([field, value]) => ({ field, operator: 'eq' as const, value: String(value) }));
}

/** A filter's current value (the address's `?s=`, `?status=`…), '' when unset. */
export function filterValue<T extends BaseRecord>(table: TableState<T>, field: string): string {
  const f = table.filters.find((x) => 'field' in x && x.field === field);
  return f && f.value !== undefined && f.value !== null ? String(f.value) : '';
}

/** Sets some filters (an empty value removes one) and goes back to page 1; the address follows. */
export function useSetFilters<T extends BaseRecord>(table: TableState<T>): (values: Record<string, string>) => void {
  const { setFilters, setCurrentPage } = table;
  return useCallback(
    (values: Record<string, string>) => {
      setFilters(
        Object.entries(values).map(([field, value]) => ({ field, operator: 'eq' as const, value: value.trim() || undefined })),
        'merge',
      );
      setCurrentPage(1);
    },
    [setFilters, setCurrentPage],
  );
}

/** The page count, the answer's extra keys, and a page past the last one moved back to it. */
export function useListPaging<T extends BaseRecord>(table: TableState<T>) {
  const { currentPage, setCurrentPage, tableQuery, filters } = table;
  const answer = tableQuery.data as Answer | undefined;
  usePageInRange(currentPage, `${currentPage}|${JSON.stringify(filters)}`, tableQuery.isFetching ? undefined : answer?.totalPages, tableQuery.dataUpdatedAt, setCurrentPage);
  return { totalPages: Math.max(1, answer?.totalPages ?? table.pageCount ?? 1), extra: answer?.extra ?? {} };
}

type Props<T extends BaseRecord> = Omit<TableProps<T>, 'pagination' | 'rowKey' | 'onChange'> & {
  table: TableState<T>;
  /** Spins the table besides while the list loads (a search about to run). */
  busy?: boolean;
};

/**
 * `useTable`'s `tableProps` in an antd Table ('Kosong' when empty) with the 'Page X of Y' pager. A screen
 * with live rows passes them as `dataSource` (the fetched page with the live values over it). A failed
 * load is told by the notification provider (the screen's `errorNotification`).
 */
export function ListTable<T extends BaseRecord>({ table, busy, ...rest }: Props<T>) {
  const t = useTranslate();
  const { totalPages } = useListPaging(table);
  return (
    <>
      <Table<T>
        {...table.tableProps}
        loading={Boolean(busy) || table.tableQuery.isFetching}
        rowKey="id"
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: t('shared.empty') }}
        {...rest}
      />
      <Pager page={table.currentPage} totalPages={totalPages} onChange={table.setCurrentPage} />
    </>
  );
}
