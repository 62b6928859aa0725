import { Tag } from 'antd';
import { useRowDelete } from '../../components/DeleteAction';
import { ListHeader } from '../../components/ListHeader';
import { PagedTable } from '../../components/PagedTable';
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
  const user = getSessionUser();
  const list = usePaged<LevelRow>('/admin/level/list-per-page', {}, 'Error fetching Level list');
  const del = useRowDelete(list, {
    path: (r) => `/admin/level/${r.id}`,
    confirm: (r) => ({ title: 'Hapus level?', content: `Level "${r.name}" akan dihapus.` }),
  });

  const canAdd = user?.role === 'admin' || user?.role === 'dev';
  return (
    <div>
      <ListHeader title="Daftar Level" addTo={canAdd && '/level/create'} addLabel="Tambah Level" />
      <PagedTable<LevelRow>
        list={list}
        columns={[
          { title: 'Name', key: 'name', render: (_, r) => <Tag color={r.color ?? undefined}>{r.name}</Tag> },
          { title: 'Harga per Blast (Rp.)', key: 'fee', render: (_, r) => formatRupiah(r.blast_fee) },
          { title: 'Syarat Minimal Blast', key: 'req', render: (_, r) => r.requirement_blast.toLocaleString('id-ID') },
          { title: 'Action', key: 'action', render: (_, r) => del.action(r, `/level/edit?id=${r.id}`) },
        ]}
      />
    </div>
  );
}
