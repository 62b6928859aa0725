import { useTranslate } from '@refinedev/core';
import { Space } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LevelTag } from '../../components/LevelTag';
import { ListHeader } from '../../components/ListHeader';
import { ListTable, useListTable } from '../../components/ListTable';
import { SearchFilterBar } from '../../components/SearchFilterBar';
import { formatDateTime, formatRupiah } from '../../lib/format';
import { getSessionUser } from '../../lib/session';
import { useAddressText } from '../../lib/useAddressText';

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
  const user = getSessionUser();
  const [params, setParams] = useSearchParams();
  const s = params.get('s') ?? '';
  const status = params.get('status') ?? '';
  const [text, setText] = useAddressText(s);
  const [searching, setSearching] = useState(false);
  const list = useListTable<MemberRow>({ resource: 'member', params: { search: s, status }, fallback: t('member.errors.list') });

  // A search shows the spinner and refetches after 1 second, from page 1.
  const submit = (value: string, nextStatus = status) => {
    setSearching(true);
    window.setTimeout(() => {
      const next = new URLSearchParams(params);
      next.set('page', '1');
      if (value.trim()) next.set('s', value.trim());
      else next.delete('s');
      if (nextStatus) next.set('status', nextStatus);
      else next.delete('status');
      setParams(next, { replace: true });
      setSearching(false);
    }, 1000);
  };

  return (
    <div>
      <ListHeader title={t('member.title')} addTo={user?.role === 'member' && '/whatsapp/create'} />
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
        list={list}
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
            render: (_, r) => (
              <Space>
                <Link to={`/member/edit?id=${r.id}`}>{t('member.settings')}</Link>
                <Link to={`/bonus/create?id=${r.id}`}>{t('member.giveBonus')}</Link>
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
