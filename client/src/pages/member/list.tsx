import { Space, Tag } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ListHeader } from '../../components/ListHeader';
import { PagedTable } from '../../components/PagedTable';
import { SearchFilterBar } from '../../components/SearchFilterBar';
import { formatDateTime, formatRupiah } from '../../lib/format';
import { getSessionUser } from '../../lib/session';
import { usePaged } from '../../lib/usePaged';

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

/** 'Filter Status' options; the value goes to the call as `status`. */
const STATUS_OPTIONS = [
  { value: '', label: 'Semua' },
  { value: 'online', label: 'Online' },
  { value: 'offline', label: 'Offline' },
  { value: 'sending', label: 'Sedang Blast' },
  { value: 'suspended', label: 'Suspended' },
];

export function MemberList() {
  const user = getSessionUser();
  const [params, setParams] = useSearchParams();
  const s = params.get('s') ?? '';
  const status = params.get('status') ?? '';
  const [text, setText] = useState(s);
  const [searching, setSearching] = useState(false);
  const list = usePaged<MemberRow>('/admin/users/members-per-page', { search: s, status }, 'Internal server error');

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
      <ListHeader title="Daftar Member" addTo={user?.role === 'member' && '/whatsapp/create'} />
      <SearchFilterBar
        label="Cari Member"
        text={text}
        onText={setText}
        onSearch={(v) => submit(v)}
        status={status}
        statusPlaceholder="Filter Status"
        options={STATUS_OPTIONS}
        onStatus={(v) => submit(text, v)}
      />
      <PagedTable<MemberRow>
        list={list}
        busy={searching}
        columns={[
          { title: 'Name', key: 'name', render: (_, r) => `${r.firstname} ${r.lastname}`.trim() },
          { title: 'Email', dataIndex: 'email' },
          {
            title: 'Level',
            key: 'level',
            render: (_, r) => (r.level ? <Tag color={r.level.color ?? undefined}>{r.level.name}</Tag> : '-'),
          },
          { title: 'Pendapatan', key: 'income', render: (_, r) => formatRupiah(r.income) },
          { title: 'Tanggal Mendaftar', key: 'createdAt', render: (_, r) => formatDateTime(r.createdAt) },
          {
            title: 'Whatsapps',
            key: 'whatsapps',
            render: (_, r) => <Link to={`/member/whatsapp?id=${r.id}`}>{r.whatsapps}</Link>,
          },
          {
            title: 'Action',
            key: 'action',
            render: (_, r) => (
              <Space>
                <Link to={`/member/edit?id=${r.id}`}>Pengaturan</Link>
                <Link to={`/bonus/create?id=${r.id}`}>Beri Bonus</Link>
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
