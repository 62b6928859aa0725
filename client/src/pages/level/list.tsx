import { List, useTable } from '@refinedev/antd';
import { useTranslate, type HttpError } from '@refinedev/core';
import { AddButton } from '../../components/AddButton';
import { LevelTag } from '../../components/LevelTag';
import { ListTable } from '../../components/ListTable';
import { RowDelete } from '../../components/RowDelete';
import { formatCount, formatRupiah } from '../../lib/format';
import { failWith } from '../../lib/notify';

export interface LevelRow {
  id: number;
  name: string;
  blast_fee: number;
  requirement_blast: number;
  color: string | null;
}

/** 'Daftar Level' (/level); 'Tambah Level' only for the roles the access-control provider lets create. */
export function LevelList() {
  const t = useTranslate();
  const table = useTable<LevelRow, HttpError>({ resource: 'level', meta: { fallback: t('level.errors.list') }, errorNotification: failWith(t('level.errors.list')) });
  return (
    <List title={t('level.title')} breadcrumb={false} headerButtons={<AddButton resource="level" label={t('level.add')} />}>
      <ListTable<LevelRow>
        table={table}
        columns={[
          { title: t('level.fields.name'), key: 'name', render: (_, r) => <LevelTag name={r.name} color={r.color} /> },
          { title: t('level.fields.fee'), key: 'fee', render: (_, r) => formatRupiah(r.blast_fee) },
          { title: t('level.fields.requirement'), key: 'req', render: (_, r) => formatCount(r.requirement_blast) },
          {
            title: t('shared.action'),
            key: 'action',
            fixed: 'right',
            render: (_, r) => <RowDelete resource="level" id={r.id} edit title={t('level.confirmTitle')} content={t('level.confirmContent', { name: r.name })} />,
          },
        ]}
      />
    </List>
  );
}
