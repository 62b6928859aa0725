import { ReloadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Space, Spin, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { Pager } from '../../components/Pager';
import { api, errorText } from '../../lib/http';
import { usePaged } from '../../lib/usePaged';
import { downloadFromApi } from '../phonenumber/transfer';

export interface ProxyRow {
  id: number;
  value: string;
  status: string;
  count_use: number;
}

const NETWORK = 'Network error. Please try again.';

/** Active is green; anything else red. */
export const statusTag = (status: string) => <Tag color={status === 'active' ? 'green' : 'red'}>{status}</Tag>;

/** 'Daftar Proxy' (/proxy). Passwords inside values arrive masked. */
export function ProxyList() {
  const { modal, message } = App.useApp();
  const [synced, setSynced] = useState<number | null>(null);
  const list = usePaged<ProxyRow>('/admin/proxy/list-per-page', { synced }, 'Error fetching Proxy list');
  const [deleting, setDeleting] = useState<Set<number>>(new Set());

  const refresh = () => {
    void message.loading({ content: 'Menyinkronkan data...', key: 'sync', duration: 1 });
    setTimeout(() => setSynced(Date.now()), 1000);
  };

  const exportAs = async (format: 'csv' | 'json') => {
    try {
      await downloadFromApi(`/admin/proxy/export?format=${format}`, `proxies.${format}`, 'Error fetching Proxy list');
    } catch (err) {
      modal.warning({ title: errorText(err, 'Error fetching Proxy list') });
    }
  };

  const remove = (row: ProxyRow) =>
    modal.confirm({
      title: 'Hapus proxy?',
      content: `Proxy ${row.value} akan dihapus.`,
      okText: 'Hapus',
      cancelText: 'Batal',
      okButtonProps: { danger: true },
      onOk: async () => {
        setDeleting((d) => new Set(d).add(row.id));
        try {
          await api(`/admin/proxy/${row.id}`, { method: 'DELETE', fallback: NETWORK });
          list.setRows((rows) => rows.filter((r) => r.id !== row.id));
          list.reload();
        } catch (err) {
          modal.error({ title: 'Gagal', content: errorText(err, NETWORK) });
        } finally {
          setDeleting((d) => {
            const next = new Set(d);
            next.delete(row.id);
            return next;
          });
        }
      },
    });

  return (
    <div>
      <PageTitle
        title="Daftar Proxy"
        extra={
          <>
            <Link to="/proxy/create">
              <Button type="primary">Tambah</Button>
            </Link>
            <Button onClick={() => void exportAs('csv')}>Export CSV</Button>
            <Button onClick={() => void exportAs('json')}>Export JSON</Button>
            <Tooltip title="Refresh">
              <Button icon={<ReloadOutlined />} onClick={refresh} aria-label="refresh" />
            </Tooltip>
          </>
        }
      />
      {list.error && <Alert type="error" showIcon message={list.error} style={{ marginBottom: 16 }} />}
      <Spin spinning={list.loading}>
        <Table<ProxyRow>
          rowKey="id"
          dataSource={list.rows}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: 'Kosong' }}
          columns={[
            { title: 'Proxy', dataIndex: 'value', key: 'value' },
            { title: 'Digunakan', key: 'use', render: (_, r) => `${r.count_use} kali` },
            { title: 'Status', key: 'status', render: (_, r) => statusTag(r.status) },
            {
              title: 'Action',
              key: 'action',
              render: (_, r) =>
                deleting.has(r.id) ? (
                  'Deleting...'
                ) : (
                  <Space>
                    <Link to={`/proxy/edit?id=${r.id}`}>Edit</Link>
                    <Button type="link" danger onClick={() => remove(r)} style={{ padding: 0 }}>
                      Delete
                    </Button>
                  </Space>
                ),
            },
          ]}
        />
      </Spin>
      <Pager page={list.page} totalPages={list.totalPages} onChange={list.setPage} />
    </div>
  );
}
