import { List, useTable } from '@refinedev/antd';
import { useCan, useTranslate, type HttpError } from '@refinedev/core';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useState } from 'react';
import { AddButton } from '../../components/AddButton';
import { filterValue, ListTable, toFilters, useSetFilters } from '../../components/ListTable';
import { SearchFilterBar } from '../../components/SearchFilterBar';
import { formatProgress } from '../../lib/format';
import { getSessionUser } from '../../lib/session';
import { useLiveOverlay } from '../../lib/useLiveOverlay';
import { useAddressText } from '../../lib/useAddressText';
import { useLive } from '../../providers/live';
import { JobActions } from './JobActions';
import { applyJobLive, jobStatusLabel, type JobKind, type JobRow } from './jobRow';

const STATUS_FILTERS = ['', 'sending', 'idle', 'finished', 'error'] as const;

/** Flags only the client knows; a fresh fetch of the list keeps them. */
const TRANSIENT: readonly (keyof JobRow)[] = ['requesting', 'progressing', 'waiting', 'waitTime', 'attempting', 'attempingCode', 'successUpdated', 'failUpdated', 'liveSeq'];

/** Phone numbers and client ids never break mid-number. */
const WHOLE = { whiteSpace: 'nowrap' } as const;

const FLASH = { background: 'rgba(18, 140, 126, 0.18)', transition: 'background 0.3s', padding: '0 4px', borderRadius: 4 };

interface Props {
  kind: JobKind;
  /** The kind's own column (Range Nomor or Target File). */
  target: ColumnsType<JobRow>[number];
}

/**
 * 'Daftar Generator' / 'Daftar Validator': search and status filter (kept in the address), paging,
 * live rows on the user's channel (staff) or 'admin' (admin, dev) over the fetched page.
 */
export function JobList(props: Props) {
  // List calls send user_id as the current user's id, or none for dev (spec 6): the access-control
  // provider says which, and the list mounts once it has (its filters start from that answer).
  const all = useCan({ resource: 'jobs', action: 'listAll' });
  const adminChannel = useCan({ resource: 'live', action: 'admin' });
  if (!all.data || !adminChannel.data) return null;
  return <JobListTable {...props} allJobs={all.data.can} adminChannel={adminChannel.data.can} />;
}

function JobListTable({ kind, target, allJobs, adminChannel }: Props & { allJobs: boolean; adminChannel: boolean }) {
  const t = useTranslate();
  const user = getSessionUser();
  const table = useTable<JobRow, HttpError>({
    resource: kind,
    filters: { permanent: toFilters({ user_id: allJobs ? undefined : user?.id }) },
    errorNotification: (err) => ({ message: err?.statusCode ? err.message : t(`${kind}.listError`), type: 'error' }),
  });
  const { tableQuery } = table;
  const setFilters = useSetFilters(table);
  const [rows, setRows] = useLiveOverlay(tableQuery.data?.data, tableQuery.dataUpdatedAt, TRANSIENT);
  const [text, setText] = useAddressText(filterValue(table, 'search'));
  const [busy, setBusy] = useState(false);

  useLive(adminChannel ? 'admin' : String(user?.id ?? ''), (msg) => setRows((rs) => applyJobLive(rs, kind, msg)));

  const update = useCallback(
    (id: number, patch: Partial<JobRow> | ((row: JobRow) => Partial<JobRow>)) =>
      setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...(typeof patch === 'function' ? patch(r) : patch) } : r))),
    [setRows],
  );

  // Counters flash for 1 second; waiting rows count down every second.
  const flashing = rows.some((r) => r.successUpdated || r.failUpdated);
  useEffect(() => {
    if (!flashing) return;
    const id = window.setTimeout(() => setRows((rs) => rs.map((r) => (r.successUpdated || r.failUpdated ? { ...r, successUpdated: false, failUpdated: false } : r))), 1000);
    return () => window.clearTimeout(id);
  }, [flashing, rows, setRows]);
  const waiting = rows.some((r) => r.waiting && (r.waitTime ?? 0) > 0);
  useEffect(() => {
    if (!waiting) return;
    const id = window.setInterval(() => setRows((rs) => rs.map((r) => (r.waiting && (r.waitTime ?? 0) > 0 ? { ...r, waitTime: (r.waitTime ?? 1) - 1 } : r))), 1000);
    return () => window.clearInterval(id);
  }, [waiting, setRows]);

  // Search and filter re-fetch after 1 second, from page 1.
  const apply = (key: 'search' | 'status', value: string) => {
    setBusy(true);
    window.setTimeout(() => {
      setFilters({ [key]: value });
      setBusy(false);
    }, 1000);
  };

  const columns: ColumnsType<JobRow> = [
    {
      title: t('jobs.columns.account'),
      key: 'akun',
      render: (_, r) => (
        <div>
          <div style={{ fontWeight: 600 }}>{r.Whatsapp?.pushname ?? '-'}</div>
          <Typography.Text type="secondary" style={WHOLE}>
            {r.Whatsapp?.phonenumber ?? '-'}
          </Typography.Text>
        </div>
      ),
    },
    { title: t('jobs.columns.clientId'), key: 'clientid', render: (_, r) => <span style={WHOLE}>{r.Whatsapp?.clientid ?? '-'}</span> },
    { title: t('jobs.columns.success'), key: 'success', render: (_, r) => <span data-testid="count-success" style={r.successUpdated ? FLASH : undefined}>{r.count_success}</span> },
    { title: t('jobs.columns.fail'), key: 'fail', render: (_, r) => <span data-testid="count-fail" style={r.failUpdated ? FLASH : undefined}>{r.count_fail}</span> },
    target,
    { title: t('jobs.columns.progress'), key: 'progress', render: (_, r) => <span data-testid="progress">{formatProgress(r.progress)}%</span> },
    {
      title: t('jobs.columns.status'),
      key: 'status',
      render: (_, r) => {
        const label = jobStatusLabel(r);
        return (
          <Tag color={label.color} data-testid="job-status">
            {t(label.key, label.values ?? {})}
          </Tag>
        );
      },
    },
    { title: t('jobs.columns.action'), key: 'action', fixed: 'right', render: (_, r) => <JobActions kind={kind} row={r} update={update} /> },
  ];

  return (
    <List title={t(`${kind}.title`)} breadcrumb={false} headerButtons={<AddButton resource={kind} label={t('jobs.add')} />}>
      <SearchFilterBar
        label={t('jobs.search')}
        text={text}
        onText={setText}
        onSearch={(v) => apply('search', v)}
        status={filterValue(table, 'status')}
        options={STATUS_FILTERS.map((value) => ({ value, label: t(`jobs.filter.${value || 'all'}`) }))}
        onStatus={(v) => apply('status', v)}
        statusWidth={160}
      />
      <ListTable<JobRow>
        table={table}
        busy={busy}
        dataSource={rows}
        locale={{ emptyText: t('jobs.empty') }}
        onRow={(r) => ({ 'data-testid': `${kind}-row-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        columns={columns}
      />
    </List>
  );
}
