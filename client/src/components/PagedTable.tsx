import { useTranslate } from '@refinedev/core';
import { Alert, Spin, Table } from 'antd';
import type { TableProps } from 'antd';
import type { PagedList } from '../lib/usePaged';
import { Pager } from './Pager';

interface Props<T> extends Omit<TableProps<T>, 'dataSource' | 'pagination' | 'rowKey' | 'locale'> {
  list: Pick<PagedList<T>, 'rows' | 'loading' | 'error' | 'page' | 'totalPages' | 'setPage'>;
  /** Spins the table besides while the list loads. */
  busy?: boolean;
  /** Shown between the error and the table. */
  notice?: React.ReactNode;
}

/** A server-paged list: its error, the table ('Kosong' when empty) and the Pager. */
export function PagedTable<T extends { id: number }>({ list, busy, notice, ...table }: Props<T>) {
  const t = useTranslate();
  return (
    <>
      {list.error && <Alert type="error" showIcon message={list.error} style={{ marginBottom: 16 }} />}
      {notice}
      <Spin spinning={Boolean(busy) || list.loading}>
        <Table<T> rowKey="id" dataSource={list.rows} pagination={false} scroll={{ x: true }} locale={{ emptyText: t('shared.empty') }} {...table} />
      </Spin>
      <Pager page={list.page} totalPages={list.totalPages} onChange={list.setPage} />
    </>
  );
}
