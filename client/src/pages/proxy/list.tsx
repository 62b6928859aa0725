import { ReloadOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import { useRowDelete } from '../../components/DeleteAction';
import { ExportButtons, ListHeader, SyncButton, useSync } from '../../components/ListHeader';
import { PagedTable } from '../../components/PagedTable';
import { usePaged } from '../../lib/usePaged';

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
  const [synced, refresh] = useSync();
  const list = usePaged<ProxyRow>('/admin/proxy/list-per-page', { synced }, 'Error fetching Proxy list');
  const del = useRowDelete(list, {
    path: (r) => `/admin/proxy/${r.id}`,
    confirm: (r) => ({ title: 'Hapus proxy?', content: `Proxy ${r.value} akan dihapus.` }),
  });

  return (
    <div>
      <ListHeader title="Daftar Proxy" addTo="/proxy/create">
        <ExportButtons path="/admin/proxy/export" fileName="proxies" fallback="Error fetching Proxy list" />
        <SyncButton tooltip="Refresh" label="refresh" icon={<ReloadOutlined />} onClick={refresh} />
      </ListHeader>
      <PagedTable<ProxyRow>
        list={list}
        columns={[
          { title: 'Proxy', dataIndex: 'value', key: 'value' },
          { title: 'Digunakan', key: 'use', render: (_, r) => `${r.count_use} kali` },
          { title: 'Status', key: 'status', render: (_, r) => statusTag(r.status) },
          { title: 'Action', key: 'action', render: (_, r) => del.action(r, `/proxy/edit?id=${r.id}`) },
        ]}
      />
    </div>
  );
}
