import { ReloadOutlined } from '@ant-design/icons';
import { Avatar, Button, Space, Tag, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ListHeader } from '../../components/ListHeader';
import { PagedTable } from '../../components/PagedTable';
import { SearchFilterBar } from '../../components/SearchFilterBar';
import { formatRupiah, formatState } from '../../lib/format';
import { getSessionUser } from '../../lib/session';
import { usePaged } from '../../lib/usePaged';
import { useLive } from '../../providers/live';
import { ActivateButton, RowActions } from './RowActions';
import { applyLive, type AccountRow } from './liveRow';
import { BLAST_EVENTS, blastLabel } from '../blaster/components/blastRow';
import { useBlastRows } from '../blaster/components/useBlastRows';

/** Filter options; the value is kept in `s`, as the search text is. */
const FILTERS = [
  { value: '', label: 'Semua' },
  { value: 'connected', label: 'Connected' },
  { value: 'loggedOut', label: 'Logged Out' },
  { value: 'conflict', label: 'Conflict' },
  { value: 'disconnected', label: 'Disconnected' },
  { value: 'unknown', label: 'Unknown' },
  { value: 'sending', label: 'Sending' },
  { value: 'suspended', label: 'Suspended' },
];
const FILTER_VALUES = new Set(FILTERS.map((f) => f.value).filter(Boolean));

const STATE_COLORS: Record<string, string> = {
  connected: 'green',
  sending: 'blue',
  conflict: 'orange',
  disconnected: 'red',
  loggedOut: 'red',
  'reconnecting...': 'processing',
};

const HIGHLIGHT = { background: 'rgba(18, 140, 126, 0.18)', transition: 'background 0.3s' };

/** 'Daftar Whatsapp' at /whatsapp and /member/whatsapp?id= (the accounts of one member). */
export function WhatsappList() {
  const user = getSessionUser();
  const role = user?.role ?? 'member';
  const [params, setParams] = useSearchParams();
  const s = params.get('s') ?? '';
  const memberId = params.get('id');
  const isFilter = FILTER_VALUES.has(s);
  const [text, setText] = useState(isFilter ? '' : s);
  const [busy, setBusy] = useState(false);
  const [synced, setSynced] = useState(false);
  const userId = role === 'member' ? user?.id : (memberId ?? undefined);
  const list = usePaged<AccountRow>('/admin/whatsapp/list-per-page', { user_id: userId, search: s, synced: synced ? 'true' : undefined }, 'Error fetching Whatsapp list');
  const { rows, setRows } = list;

  const update = useCallback((id: number, patch: Partial<AccountRow>) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...patch } : r))), [setRows]);

  const channel = role === 'member' ? String(user?.id ?? '') : 'admin';
  // Account events (connection, reset, suspension…) here; blast events, the 1 s counter highlight and
  // the wait countdown through the blasting rows hook.
  useLive(channel, (msg) => {
    if (!BLAST_EVENTS.has(msg.event)) setRows((rs) => applyLive(rs, msg));
  });
  useBlastRows(channel, rows, setRows);

  // Search, filter and refresh show the spinner and re-fetch after 1 second.
  const later = (fn: () => void) => {
    setBusy(true);
    window.setTimeout(() => {
      fn();
      setBusy(false);
    }, 1000);
  };
  const applyS = (value: string) =>
    later(() => {
      const next = new URLSearchParams(params);
      next.set('page', '1');
      if (value.trim()) next.set('s', value.trim());
      else next.delete('s');
      setParams(next, { replace: true });
    });
  const refresh = () =>
    later(() => {
      setSynced(true);
      list.reload();
    });

  const showActions = role === 'member' || role === 'dev';
  const showOwner = role === 'admin' || role === 'dev';

  return (
    <div>
      <ListHeader title="Daftar Whatsapp" addTo={role === 'member' && '/whatsapp/create'}>
        <Button icon={<ReloadOutlined />} onClick={refresh} aria-label="Refresh" />
      </ListHeader>
      <SearchFilterBar
        label="Cari Whatsapp"
        text={text}
        onText={setText}
        onSearch={applyS}
        status={isFilter ? s : ''}
        options={FILTERS}
        onStatus={(v) => {
          setText('');
          applyS(v);
        }}
      />
      <PagedTable<AccountRow>
        list={list}
        busy={busy}
          onRow={(r) => ({ 'data-testid': `wa-row-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: 'Akun',
            key: 'akun',
            render: (_, r) => (
              <Space>
                <Avatar style={{ background: '#128C7E' }}>{(r.pushname ?? '?').slice(0, 1).toUpperCase()}</Avatar>
                <div>
                  <div style={{ fontWeight: 600 }}>{r.pushname ?? '-'}</div>
                  <Typography.Text type="secondary">{r.phonenumber ?? '-'}</Typography.Text>
                  {showOwner && r.user && (
                    <div>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {`${r.user.firstname} ${r.user.lastname}`.trim()}
                      </Typography.Text>
                    </div>
                  )}
                </div>
              </Space>
            ),
          },
          { title: 'Client ID', dataIndex: 'clientid' },
          { title: 'Berhasil', key: 'ok', render: (_, r) => <span style={r.successUpdated ? HIGHLIGHT : undefined}>{r.count_success}</span> },
          { title: 'Gagal', key: 'fail', render: (_, r) => <span style={r.failUpdated ? HIGHLIGHT : undefined}>{r.count_fail}</span> },
          { title: 'Total Pendapatan', key: 'income', render: (_, r) => formatRupiah(r.income) },
          {
            title: 'Status',
            key: 'status',
            render: (_, r) => {
              const label = blastLabel(r);
              return (
                <Space direction="vertical" size={2}>
                  {r.suspended ? (
                    <Tag color="red" data-testid="wa-state">{`Suspended (${r.suspended_count}x)`}</Tag>
                  ) : (
                    <Tag color={STATE_COLORS[r.state ?? ''] ?? 'default'} data-testid="wa-state">
                      {formatState(r.state)}
                    </Tag>
                  )}
                  {label && <Typography.Text type="secondary">{label}</Typography.Text>}
                  {showOwner && <ActivateButton row={r} update={update} />}
                </Space>
              );
            },
          },
          showActions
            ? { title: 'Action', key: 'action', render: (_, r) => <RowActions row={r} role={role} update={update} /> }
            : {
                title: 'Sending',
                key: 'sending',
                render: (_, r) => (r.status === 'sending' ? <Tag color="processing">Sending</Tag> : <Tag>Idle</Tag>),
              },
        ]}
      />
    </div>
  );
}
