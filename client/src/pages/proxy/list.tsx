import { ReloadOutlined } from '@ant-design/icons';
import { List, useTable } from '@refinedev/antd';
import { useInvalidate, useTranslate, type HttpError } from '@refinedev/core';
import { Tag } from 'antd';
import { useEffect } from 'react';
import { AddButton } from '../../components/AddButton';
import { ExportButtons, SyncButton, useSync } from '../../components/ListHeader';
import { ListTable } from '../../components/ListTable';
import { RowDelete } from '../../components/RowDelete';
import { failWith } from '../../lib/notify';

export interface ProxyRow {
  id: number;
  value: string;
  status: string;
  count_use: number;
}

/** Active is green; anything else red. */
export const statusTag = (status: string) => <Tag color={status === 'active' ? 'green' : 'red'}>{status}</Tag>;

/** 'Daftar Proxy' (/proxy). Passwords inside values arrive masked. */
export function ProxyList() {
  const t = useTranslate();
  const [synced, refresh] = useSync();
  const table = useTable<ProxyRow, HttpError>({ resource: 'proxy', meta: { fallback: t('proxy.errors.list') }, errorNotification: failWith(t('proxy.errors.list')) });
  const invalidate = useInvalidate();
  // Each refresh stamp marks the cached pages stale; the one on screen is fetched again.
  useEffect(() => {
    if (synced) void invalidate({ resource: 'proxy', invalidates: ['list'] });
  }, [synced, invalidate]);

  return (
    <List
      title={t('proxy.title')}
      breadcrumb={false}
      headerButtons={
        <>
          <AddButton resource="proxy" />
          <ExportButtons path="/admin/proxy/export" fileName="proxies" fallback={t('proxy.errors.list')} />
          <SyncButton tooltip={t('shared.refresh')} label="refresh" icon={<ReloadOutlined aria-hidden />} onClick={refresh} />
        </>
      }
    >
      <ListTable<ProxyRow>
        table={table}
        columns={[
          { title: t('proxy.fields.value'), dataIndex: 'value', key: 'value' },
          { title: t('proxy.fields.used'), key: 'use', render: (_, r) => t('shared.usedTimes', { count: r.count_use }) },
          { title: t('proxy.fields.status'), key: 'status', render: (_, r) => statusTag(r.status) },
          {
            title: t('shared.action'),
            key: 'action',
            fixed: 'right',
            render: (_, r) => <RowDelete resource="proxy" id={r.id} edit title={t('proxy.confirmTitle')} content={t('proxy.confirmContent', { value: r.value })} />,
          },
        ]}
      />
    </List>
  );
}
