import { ReloadOutlined } from '@ant-design/icons';
import { List, useTable } from '@refinedev/antd';
import { useInvalidate, useTranslate, type HttpError } from '@refinedev/core';
import { App, Avatar, Button, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AddButton } from '../../components/AddButton';
import { filterValue, ListTable, toFilters, useSetFilters } from '../../components/ListTable';
import { SearchFilterBar } from '../../components/SearchFilterBar';
import { formatCount, formatRupiah, formatState } from '../../lib/format';
import { serverText } from '../../lib/serverError';
import { getSessionUser } from '../../lib/session';
import { useLiveOverlay } from '../../lib/useLiveOverlay';
import { useAddressText } from '../../lib/useAddressText';
import { useCanAtOnce } from '../../providers/access';
import { useLive } from '../../providers/live';
import { ActivateButton, RowActions } from './components/RowActions';
import { ScheduleButton, ScheduledTag } from './components/Schedule';
import { accountLabel, applyLive, OUTCOME_KEYS, type AccountRow } from './liveRow';
import { BLAST_EVENTS, isForRow } from '../blaster/components/blastRow';
import { useBlastRows } from '../blaster/components/useBlastRows';

/** Filter values; the choice is kept in `s`, as the search text is. */
const FILTERS = ['', 'connected', 'loggedOut', 'conflict', 'disconnected', 'unknown', 'sending', 'suspended'] as const;
const FILTER_VALUES = new Set<string>(FILTERS.filter(Boolean));

/**
 * Flags only the client knows; a fresh fetch of the list keeps them. The wait for 'Jam Kirim'
 * (`windowOpensAt`) is not one: the list's rows carry it, as fresh as the fetch.
 */
const TRANSIENT: readonly (keyof AccountRow)[] = ['requesting', 'attempting', 'attempingCode', 'progressing', 'waiting', 'waitTime', 'waitUntil', 'successUpdated', 'failUpdated', 'flashAt'];

const STATE_COLORS: Record<string, string> = {
  connected: 'green',
  sending: 'blue',
  conflict: 'orange',
  disconnected: 'red',
  loggedOut: 'red',
  'reconnecting...': 'processing',
};

/** Phone numbers and client ids never break mid-number. */
const WHOLE = { whiteSpace: 'nowrap' } as const;

const HIGHLIGHT = { background: 'rgba(18, 140, 126, 0.18)', transition: 'background 0.3s' };

/** Today's figures in two short columns: Terkirim / Diterima over Dibaca / Gagal. */
const TODAY_GRID = { display: 'grid', gridTemplateColumns: 'auto auto', columnGap: 12, rowGap: 2, whiteSpace: 'nowrap' } as const;

/** 'Daftar Whatsapp' at /whatsapp and /member/whatsapp?id= (the accounts of one member). */
export function WhatsappList() {
  const t = useTranslate();
  const user = getSessionUser();
  // The caller's own accounts and live channel (the server scopes the same way); page access is the router's.
  const role = user?.role ?? 'member';
  // The spec's columns and buttons by role, asked of the access-control provider's rule table.
  // Answered on the first render, so the table never draws one column set and then switches to another.
  const showActions = useCanAtOnce({ resource: 'whatsapp', action: 'actions' });
  const showOwner = useCanAtOnce({ resource: 'whatsapp', action: 'owner' });
  const canSchedule = useCanAtOnce({ resource: 'whatsapp', action: 'schedule' });
  const canAdd = useCanAtOnce({ resource: 'whatsapp', action: 'add' });
  const [params] = useSearchParams();
  const memberId = params.get('id');
  const [synced, setSynced] = useState(false);
  const invalidate = useInvalidate();
  const { notification } = App.useApp();
  const table = useTable<AccountRow, HttpError>({
    resource: 'whatsapp',
    // `?s=` (search text or a state) is the address's; the owner and a sync are the screen's own.
    filters: { permanent: toFilters({ user_id: role === 'member' ? user?.id : (memberId ?? undefined), synced: synced ? 'true' : undefined }) },
    errorNotification: (err) => ({ message: err?.statusCode ? err.message : t('whatsapp.listError'), type: 'error' }),
  });
  const { tableQuery } = table;
  const setFilters = useSetFilters(table);
  const s = filterValue(table, 's');
  const isFilter = FILTER_VALUES.has(s);
  const [text, setText] = useAddressText(isFilter ? '' : s);
  const [busy, setBusy] = useState(false);
  const [rows, setRows] = useLiveOverlay(tableQuery.data?.data, tableQuery.dataUpdatedAt, TRANSIENT);

  const update = useCallback((id: number, patch: Partial<AccountRow>) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...patch } : r))), [setRows]);

  const channel = role === 'member' ? String(user?.id ?? '') : 'admin';
  // Account events (connection, reset, suspension…) here; blast events, the 1 s counter highlight and
  // the wait countdown through the blasting rows hook.
  useLive(channel, (msg) => {
    if (!BLAST_EVENTS.has(msg.event)) setRows((rs) => applyLive(rs, msg));
    // A blast the server ended (tier reached, template refused, server error…) says why, not only 'idle':
    // for an account on this page (an admin's channel carries every member's).
    const data = msg.data as { message?: unknown; code?: unknown };
    const row = msg.event === 'error_blast' && typeof data.message === 'string' ? rows.find((r) => isForRow(r, msg.data)) : undefined;
    if (row && typeof data.message === 'string') {
      notification.error({
        message: t('whatsapp.blast.ended', { name: row.pushname || row.phonenumber || row.clientid }),
        description: serverText(data.message, data.code, t),
      });
    }
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
  const applyS = (value: string) => later(() => setFilters({ s: value }));
  const refresh = () =>
    later(() => {
      if (synced) void invalidate({ resource: 'whatsapp', invalidates: ['list'] });
      else setSynced(true);
    });

  const columns: ColumnsType<AccountRow> = [
    {
      title: t('whatsapp.columns.account'),
      key: 'akun',
      render: (_, r) => (
        <Space>
          <Avatar style={{ background: '#128C7E' }}>{(r.pushname ?? '?').slice(0, 1).toUpperCase()}</Avatar>
          <div>
            <div style={{ fontWeight: 600 }}>{r.pushname ?? '-'}</div>
            <Typography.Text type="secondary" style={WHOLE}>
              {r.phonenumber ?? '-'}
            </Typography.Text>
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
    { title: t('whatsapp.columns.clientId'), key: 'clientid', render: (_, r) => <span style={WHOLE}>{r.clientid}</span> },
    { title: t('whatsapp.columns.success'), key: 'ok', render: (_, r) => <span style={r.successUpdated ? HIGHLIGHT : undefined}>{formatCount(r.count_success)}</span> },
    { title: t('whatsapp.columns.fail'), key: 'fail', render: (_, r) => <span style={r.failUpdated ? HIGHLIGHT : undefined}>{formatCount(r.count_fail)}</span> },
    {
      title: t('whatsapp.columns.today'),
      key: 'today',
      // Each figure is a group named by its label, so it reads (and is found) as 'Diterima 12'.
      render: (_, r) => (
        <div role="group" aria-label={t('whatsapp.columns.today')} style={TODAY_GRID}>
          {OUTCOME_KEYS.map((k) => (
            <span key={k} role="group" aria-label={t(`whatsapp.today.${k}`)}>
              <Typography.Text type="secondary">{t(`whatsapp.today.${k}`)}</Typography.Text> {formatCount(r.today?.[k] ?? 0)}
            </span>
          ))}
        </div>
      ),
    },
    { title: t('whatsapp.columns.income'), key: 'income', render: (_, r) => formatRupiah(r.income) },
    {
      title: t('whatsapp.columns.status'),
      key: 'status',
      render: (_, r) => {
        const label = accountLabel(r);
        return (
          <Space direction="vertical" size={2}>
            {r.suspended ? (
              <Tag color="red" data-testid="wa-state">
                {t('whatsapp.suspended', { times: r.suspended_count })}
              </Tag>
            ) : (
              <Tag color={STATE_COLORS[r.state ?? ''] ?? 'default'} data-testid="wa-state">
                {formatState(r.state)}
              </Tag>
            )}
            {label && <Typography.Text type="secondary">{t(label.key, label.values ?? {})}</Typography.Text>}
            <ScheduledTag row={r} update={update} />
            {showOwner && <ActivateButton row={r} update={update} />}
          </Space>
        );
      },
    },
    showActions
      ? { title: t('whatsapp.columns.action'), key: 'action', fixed: 'right', render: (_, r) => <RowActions row={r} role={role} update={update} /> }
      : {
          title: t('whatsapp.columns.sending'),
          key: 'sending',
          render: (_, r) => (
            <Space direction="vertical" size={4}>
              {r.status === 'sending' ? <Tag color="processing">{t('whatsapp.run.sending')}</Tag> : <Tag>{t('whatsapp.run.idle')}</Tag>}
              {canSchedule && <ScheduleButton row={r} update={update} />}
            </Space>
          ),
        },
  ];

  return (
    <List
      title={t('whatsapp.title')}
      breadcrumb={false}
      headerButtons={
        <>
          {/* The spec gives 'Tambah' to members only. */}
          {canAdd && <AddButton resource="whatsapp" label={t('whatsapp.add')} />}
          <Button icon={<ReloadOutlined aria-hidden />} onClick={refresh} aria-label={t('whatsapp.refresh')} />
        </>
      }
    >
      <SearchFilterBar
        label={t('whatsapp.search')}
        text={text}
        onText={setText}
        onSearch={applyS}
        status={isFilter ? s : ''}
        options={FILTERS.map((value) => ({ value, label: t(`whatsapp.filter.${value || 'all'}`) }))}
        onStatus={(v) => {
          setText('');
          applyS(v);
        }}
      />
      <ListTable<AccountRow>
        table={table}
        busy={busy}
        dataSource={rows}
        locale={{ emptyText: t('whatsapp.empty') }}
        onRow={(r) => ({ 'data-testid': `wa-row-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        columns={columns}
      />
    </List>
  );
}
