import { useTranslate } from '@refinedev/core';
import { LevelTag } from '../../components/LevelTag';
import { ListHeader } from '../../components/ListHeader';
import { ListTable, useListTable } from '../../components/ListTable';
import { RowDelete } from '../../components/RowDelete';
import { formatCount, formatRupiah } from '../../lib/format';
import { getSessionUser } from '../../lib/session';

export interface LevelRow {
  id: number;
  name: string;
  blast_fee: number;
  requirement_blast: number;
  color: string | null;
}

/** 'Daftar Level' (/level). */
export function LevelList() {
  const t = useTranslate();
  const user = getSessionUser();
  const list = useListTable<LevelRow>({ resource: 'level', fallback: t('level.errors.list') });
  const canAdd = user?.role === 'admin' || user?.role === 'dev';
  return (
    <div>
      <ListHeader title={t('level.title')} addTo={canAdd && '/level/create'} addLabel={t('level.add')} />
      <ListTable<LevelRow>
        list={list}
        columns={[
          { title: t('level.fields.name'), key: 'name', render: (_, r) => <LevelTag name={r.name} color={r.color} /> },
          { title: t('level.fields.fee'), key: 'fee', render: (_, r) => formatRupiah(r.blast_fee) },
          { title: t('level.fields.requirement'), key: 'req', render: (_, r) => formatCount(r.requirement_blast) },
          {
            title: t('shared.action'),
            key: 'action',
            render: (_, r) => (
              <RowDelete resource="level" id={r.id} editTo={`/level/edit?id=${r.id}`} title={t('level.confirmTitle')} content={t('level.confirmContent', { name: r.name })} />
            ),
          },
        ]}
      />
    </div>
  );
}
