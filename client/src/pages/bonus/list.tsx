import { Alert, App, Button, Spin, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { Pager } from '../../components/Pager';
import { api, errorText } from '../../lib/http';
import { formatDateTime, formatRupiah } from '../../lib/format';
import { getSessionUser } from '../../lib/session';
import { usePaged } from '../../lib/usePaged';
import { useLive } from '../../providers/live';

interface BonusRow {
  id: number;
  nominal: number;
  reason: string;
  createdAt: string;
  userId: number;
  adminId: number | null;
  User: { firstname: string; lastname: string; email: string } | null;
}

export function BonusList() {
  const { modal } = App.useApp();
  const user = getSessionUser();
  const manager = user?.role === 'admin' || user?.role === 'dev';
  const list = usePaged<BonusRow>(user ? '/admin/bonus/list-per-page' : null, { user_id: manager ? null : user?.id }, 'Error fetching Bonus list');
  const [total, setTotal] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Set<number>>(new Set());

  const userId = user?.id;
  const loadTotal = useCallback(() => {
    if (!userId || manager) return;
    api<{ totalBonus: number }>(`/admin/bonus/total/${userId}`, { fallback: 'Error fetching Bonus list' })
      .then((res) => setTotal(res.totalBonus))
      .catch(() => setTotal(null));
  }, [userId, manager]);
  useEffect(loadTotal, [loadTotal]);

  // A bonus sent or taken back while a member has the page open shows at once. Balance events also
  // follow every blast earning, so the list reloads only when the bonus total actually moved.
  useLive<{ totalBonus: number }>(!manager && userId ? String(userId) : null, (msg) => {
    if (msg.event !== 'balance' || msg.data.totalBonus === total) return;
    setTotal(msg.data.totalBonus);
    list.reload();
  });

  const remove = (row: BonusRow) =>
    modal.confirm({
      title: 'Hapus bonus?',
      content: `Bonus ${formatRupiah(row.nominal)} untuk ${row.User?.firstname ?? 'member'} akan dihapus.`,
      okText: 'Hapus',
      cancelText: 'Batal',
      okButtonProps: { danger: true },
      onOk: async () => {
        setDeleting((d) => new Set(d).add(row.id));
        try {
          await api(`/admin/bonus/${row.id}`, { method: 'DELETE', fallback: 'Network error. Please try again.' });
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

  const columns: ColumnsType<BonusRow> = [
    ...(manager
      ? [{ title: 'Member', key: 'member', render: (_: unknown, r: BonusRow) => (r.User ? `${r.User.firstname} ${r.User.lastname}`.trim() : '-') }]
      : []),
    { title: 'Nominal', key: 'nominal', render: (_, r) => formatRupiah(r.nominal) },
    { title: 'Keterangan', dataIndex: 'reason' },
    { title: manager ? 'Dibuat Pada' : 'Diterima Pada', key: 'createdAt', render: (_, r) => formatDateTime(r.createdAt) },
    ...(manager
      ? [
          {
            title: 'Action',
            key: 'action',
            render: (_: unknown, r: BonusRow) =>
              deleting.has(r.id) ? (
                'Deleting...'
              ) : (
                <Button type="link" danger style={{ padding: 0 }} onClick={() => remove(r)}>
                  Delete
                </Button>
              ),
          },
        ]
      : []),
  ];

  return (
    <div>
      <PageTitle
        title={manager ? 'Daftar Bonus' : `Bonus : ${formatRupiah(total ?? 0)}`}
        extra={
          manager && (
            <Link to="/bonus/create">
              <Button type="primary">Kirim Bonus</Button>
            </Link>
          )
        }
      />
      {list.error && <Alert type="error" showIcon message={list.error} style={{ marginBottom: 16 }} />}
      <Spin spinning={list.loading}>
        <Table<BonusRow> rowKey="id" dataSource={list.rows} pagination={false} scroll={{ x: true }} locale={{ emptyText: 'Kosong' }} columns={columns} />
      </Spin>
      <Pager page={list.page} totalPages={list.totalPages} onChange={list.setPage} />
    </div>
  );
}
