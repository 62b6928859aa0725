import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useState } from 'react';
import { useRowDelete } from '../../components/DeleteAction';
import { ListHeader } from '../../components/ListHeader';
import { PagedTable } from '../../components/PagedTable';
import { api } from '../../lib/http';
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
  const user = getSessionUser();
  const manager = user?.role === 'admin' || user?.role === 'dev';
  const list = usePaged<BonusRow>(user ? '/admin/bonus/list-per-page' : null, { user_id: manager ? null : user?.id }, 'Error fetching Bonus list');
  const [total, setTotal] = useState<number | null>(null);
  const del = useRowDelete(list, {
    path: (r) => `/admin/bonus/${r.id}`,
    confirm: (r) => ({ title: 'Hapus bonus?', content: `Bonus ${formatRupiah(r.nominal)} untuk ${r.User?.firstname ?? 'member'} akan dihapus.` }),
  });

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

  const columns: ColumnsType<BonusRow> = [
    ...(manager
      ? [{ title: 'Member', key: 'member', render: (_: unknown, r: BonusRow) => (r.User ? `${r.User.firstname} ${r.User.lastname}`.trim() : '-') }]
      : []),
    { title: 'Nominal', key: 'nominal', render: (_, r) => formatRupiah(r.nominal) },
    { title: 'Keterangan', dataIndex: 'reason' },
    { title: manager ? 'Dibuat Pada' : 'Diterima Pada', key: 'createdAt', render: (_, r) => formatDateTime(r.createdAt) },
    ...(manager ? [{ title: 'Action', key: 'action', render: (_: unknown, r: BonusRow) => del.action(r) }] : []),
  ];

  return (
    <div>
      <ListHeader title={manager ? 'Daftar Bonus' : `Bonus : ${formatRupiah(total ?? 0)}`} addTo={manager && '/bonus/create'} addLabel="Kirim Bonus" />
      <PagedTable<BonusRow> list={list} columns={columns} />
    </div>
  );
}
