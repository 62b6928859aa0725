import { List, useTable } from '@refinedev/antd';
import { useTranslate, type HttpError } from '@refinedev/core';
import { Space } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { AddButton } from '../../components/AddButton';
import { LevelTag } from '../../components/LevelTag';
import { filterValue, ListTable, useSetFilters } from '../../components/ListTable';
import { SearchFilterBar } from '../../components/SearchFilterBar';
import { formatDateTime, formatRupiah } from '../../lib/format';
import { failWith } from '../../lib/notify';
import { useAddressText } from '../../lib/useAddressText';
import { useCanAtOnce } from '../../providers/access';

export interface MemberRow {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  income: number;
  createdAt: string | null;
  whatsapps: number;
  level: { name: string; color: string | null } | null;
}

/** 'Filter Status' values; the value goes to the call as `status`. */
const STATUSES = ['', 'online', 'offline', 'sending', 'suspended'] as const;

/** 'Daftar Member' (/member): search `?s=`, 'Filter Status' `?status=`, page `?page=`. */
export function MemberList() {
  const t = useTranslate();
  // The spec gives 'Tambah' (to /whatsapp/create) to the role member only, as on the WhatsApp list.
  const canAdd = useCanAtOnce({ resource: 'whatsapp', action: 'add' });
  const table = useTable<MemberRow, HttpError>({ resource: 'member', meta: { fallback: t('member.errors.list') }, errorNotification: failWith(t('member.errors.list')) });
  const setFilters = useSetFilters(table);
  const s = filterValue(table, 's');
  const status = filterValue(table, 'status');
  const [text, setText] = useAddressText(s);
  const [searching, setSearching] = useState(false);

  // A search shows the spinner and refetches after 1 second, from page 1.
  const submit = (value: string, nextStatus = status) => {
    setSearching(true);
    window.setTimeout(() => {
      setFilters({ s: value, status: nextStatus });
      setSearching(false);
    }, 1000);
  };

  return (
    <List title={t('member.title')} breadcrumb={false} headerButtons={canAdd ? <AddButton resource="whatsapp" /> : null}>
      <SearchFilterBar
        label={t('member.search')}
        text={text}
        onText={setText}
        onSearch={(v) => submit(v)}
        status={status}
        statusPlaceholder={t('shared.filterStatus')}
        options={STATUSES.map((value) => ({ value, label: t(`member.statuses.${value || 'all'}`) }))}
        onStatus={(v) => submit(text, v)}
        visibleStatusLabel
      />
      <ListTable<MemberRow>
        table={table}
        busy={searching}
        columns={[
          { title: t('member.fields.name'), key: 'name', render: (_, r) => `${r.firstname} ${r.lastname}`.trim() },
          { title: t('member.fields.email'), dataIndex: 'email' },
          { title: t('member.fields.level'), key: 'level', render: (_, r) => (r.level ? <LevelTag name={r.level.name} color={r.level.color} /> : '-') },
          { title: t('member.fields.income'), key: 'income', render: (_, r) => formatRupiah(r.income) },
          { title: t('member.fields.createdAt'), key: 'createdAt', render: (_, r) => formatDateTime(r.createdAt) },
          { title: t('member.fields.whatsapps'), key: 'whatsapps', render: (_, r) => <Link to={`/member/whatsapp?id=${r.id}`}>{r.whatsapps}</Link> },
          {
            title: t('shared.action'),
            key: 'action',
            fixed: 'right',
            render: (_, r) => (
              <Space>
                <Link to={`/member/edit?id=${r.id}`}>{t('member.settings')}</Link>
                <Link to={`/bonus/create?id=${r.id}`}>{t('member.giveBonus')}</Link>
              </Space>
            ),
          },
        ]}
      />
    </List>
  );
}
