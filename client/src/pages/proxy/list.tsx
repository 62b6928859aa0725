import { ReloadOutlined } from '@ant-design/icons';
import { useInvalidate, useTranslate } from '@refinedev/core';
import { Tag } from 'antd';
import { useEffect } from 'react';
import { ExportButtons, ListHeader, SyncButton, useSync } from '../../components/ListHeader';
import { ListTable, useListTable } from '../../components/ListTable';
import { RowDelete } from '../../components/RowDelete';

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
  const list = useListTable<ProxyRow>({ resource: 'proxy', fallback: t('proxy.errors.list') });
  const invalidate = useInvalidate();
  // Each refresh stamp marks the cached pages stale; the one on screen is fetched again.
  useEffect(() => {
    if (synced) void invalidate({ resource: 'proxy', invalidates: ['list'] });
  }, [synced, invalidate]);

  return (
    <div>
      <ListHeader title={t('proxy.title')} addTo="/proxy/create">
        <ExportButtons path="/admin/proxy/export" fileName="proxies" fallback={t('proxy.errors.list')} />
        <SyncButton tooltip={t('shared.refresh')} label="refresh" icon={<ReloadOutlined aria-hidden />} onClick={refresh} />
      </ListHeader>
      <ListTable<ProxyRow>
        list={list}
        columns={[
          { title: t('proxy.fields.value'), dataIndex: 'value', key: 'value' },
          { title: t('proxy.fields.used'), key: 'use', render: (_, r) => t('shared.usedTimes', { count: r.count_use }) },
          { title: t('proxy.fields.status'), key: 'status', render: (_, r) => statusTag(r.status) },
          {
            title: t('shared.action'),
            key: 'action',
            render: (_, r) => (
              <RowDelete resource="proxy" id={r.id} editTo={`/proxy/edit?id=${r.id}`} title={t('proxy.confirmTitle')} content={t('proxy.confirmContent', { value: r.value })} />
            ),
          },
        ]}
      />
    </div>
  );
}
