import { Alert, App, Button, Space, Spin, Table, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { Pager } from '../../components/Pager';
import { api, errorText } from '../../lib/http';
import { formatRupiah } from '../../lib/format';
import { getSessionUser } from '../../lib/session';
import { usePaged } from '../../lib/usePaged';

export interface LevelRow {
  id: number;
  name: string;
  blast_fee: number;
  requirement_blast: number;
  color: string | null;
}

export function LevelList() {
  const { modal } = App.useApp();
  const user = getSessionUser();
  const list = usePaged<LevelRow>('/admin/level/list-per-page', {}, 'Error fetching Level list');
  const [deleting, setDeleting] = useState<Set<number>>(new Set());

  const remove = (row: LevelRow) =>
    modal.confirm({
      title: 'Hapus level?',
      content: `Level "${row.name}" akan dihapus.`,
      okText: 'Hapus',
      cancelText: 'Batal',
      okButtonProps: { danger: true },
      onOk: async () => {
        setDeleting((d) => new Set(d).add(row.id));
        try {
          await api(`/admin/level/${row.id}`, { method: 'DELETE', fallback: 'Network error. Please try again.' });
          list.setRows((rows) => rows.filter((r) => r.id !== row.id));
          list.reload();
        } catch (err) {
          modal.error({ title: 'Gagal', content: errorText(err, 'Network error. Please try again.') });
        } finally {
          setDeleting((d) => {
            const next = new Set(d);
            next.delete(row.id);
            return next;
          });
        }
      },
    });

  const canAdd = user?.role === 'admin' || user?.role === 'dev';
  return (
    <div>
      <PageTitle
        title="Daftar Level"
        extra={
          canAdd && (
            <Link to="/level/create">
              <Button type="primary">Tambah Level</Button>
            </Link>
          )
        }
      />
      {list.error && <Alert type="error" showIcon message={list.error} style={{ marginBottom: 16 }} />}
      <Spin spinning={list.loading}>
        <Table<LevelRow>
          rowKey="id"
          dataSource={list.rows}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: 'Kosong' }}
          columns={[
            { title: 'Name', key: 'name', render: (_, r) => <Tag color={r.color ?? undefined}>{r.name}</Tag> },
            { title: 'Harga per Blast (Rp.)', key: 'fee', render: (_, r) => formatRupiah(r.blast_fee) },
            { title: 'Syarat Minimal Blast', key: 'req', render: (_, r) => r.requirement_blast.toLocaleString('id-ID') },
            {
              title: 'Action',
              key: 'action',
              render: (_, r) =>
                deleting.has(r.id) ? (
                  'Deleting...'
                ) : (
                  <Space>
                    <Link to={`/level/edit?id=${r.id}`}>Edit</Link>
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
