import { Alert, Spin, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ListHeader } from '../../components/ListHeader';
import { SearchFilterBar } from '../../components/SearchFilterBar';
import { Pager } from '../../components/Pager';
import { formatProgress } from '../../lib/format';
import { getSessionUser } from '../../lib/session';
import { usePaged } from '../../lib/usePaged';
import { useLive } from '../../providers/live';
import { JobActions } from './JobActions';
import { applyJobLive, jobStatusLabel, type JobKind, type JobRow } from './jobRow';

const STATUS_FILTERS = [
  { value: '', label: 'Semua' },
  { value: 'sending', label: 'Berjalan' },
  { value: 'idle', label: 'Idle' },
  { value: 'finished', label: 'Finished' },
  { value: 'error', label: 'Error' },
];

const FLASH = { background: 'rgba(18, 140, 126, 0.18)', transition: 'background 0.3s', padding: '0 4px', borderRadius: 4 };

interface Props {
  kind: JobKind;
  title: string;
  fallback: string;
  /** The kind's own column (Range Nomor or Target File). */
  target: ColumnsType<JobRow>[number];
}

/**
 * 'Daftar Generator' / 'Daftar Validator': search and status filter (kept in the address), paging,
 * live rows on the user's channel (staff) or 'admin' (admin, dev).
 */
export function JobList({ kind, title, fallback, target }: Props) {
  const user = getSessionUser();
  const role = user?.role;
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const status = params.get('status') ?? '';
  const [text, setText] = useState(search);
  const [busy, setBusy] = useState(false);
  // List calls send user_id as the current user's id, or none for dev (spec 6).
  const userId = role === 'dev' ? undefined : user?.id;
  const list = usePaged<JobRow>(`/admin/${kind}/list-per-page`, { user_id: userId, search, status }, fallback);
  const { rows, setRows, reload } = list;

  useLive(role === 'admin' || role === 'dev' ? 'admin' : String(user?.id ?? ''), (msg) => setRows((rs) => applyJobLive(rs, kind, msg)));

  const update = useCallback(
    (id: number, patch: Partial<JobRow> | ((row: JobRow) => Partial<JobRow>)) =>
      setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...(typeof patch === 'function' ? patch(r) : patch) } : r))),
    [setRows],
  );
  const removed = useCallback(
    (id: number) => {
      setRows((rs) => rs.filter((r) => r.id !== id));
      reload();
    },
    [setRows, reload],
  );

  // Counters flash for 1 second; waiting rows count down every second.
  const flashing = rows.some((r) => r.successUpdated || r.failUpdated);
  useEffect(() => {
    if (!flashing) return;
    const t = window.setTimeout(() => setRows((rs) => rs.map((r) => (r.successUpdated || r.failUpdated ? { ...r, successUpdated: false, failUpdated: false } : r))), 1000);
    return () => window.clearTimeout(t);
  }, [flashing, rows, setRows]);
  const waiting = rows.some((r) => r.waiting && (r.waitTime ?? 0) > 0);
  useEffect(() => {
    if (!waiting) return;
    const t = window.setInterval(() => setRows((rs) => rs.map((r) => (r.waiting && (r.waitTime ?? 0) > 0 ? { ...r, waitTime: (r.waitTime ?? 1) - 1 } : r))), 1000);
    return () => window.clearInterval(t);
  }, [waiting, setRows]);

  // Search and filter re-fetch after 1 second, from page 1.
  const apply = (key: 'search' | 'status', value: string) => {
    setBusy(true);
    window.setTimeout(() => {
      const next = new URLSearchParams(params);
      next.set('page', '1');
      if (value.trim()) next.set(key, value.trim());
      else next.delete(key);
      setParams(next, { replace: true });
      setBusy(false);
    }, 1000);
  };

  const columns: ColumnsType<JobRow> = [
    {
      title: 'Akun',
      key: 'akun',
      render: (_, r) => (
        <div>
          <div style={{ fontWeight: 600 }}>{r.Whatsapp?.pushname ?? '-'}</div>
          <Typography.Text type="secondary">{r.Whatsapp?.phonenumber ?? '-'}</Typography.Text>
        </div>
      ),
    },
    { title: 'Client ID', key: 'clientid', render: (_, r) => r.Whatsapp?.clientid ?? '-' },
    { title: 'Berhasil', key: 'success', render: (_, r) => <span data-testid="count-success" style={r.successUpdated ? FLASH : undefined}>{r.count_success}</span> },
    { title: 'Gagal', key: 'fail', render: (_, r) => <span data-testid="count-fail" style={r.failUpdated ? FLASH : undefined}>{r.count_fail}</span> },
    target,
    { title: 'Progress', key: 'progress', render: (_, r) => <span data-testid="progress">{formatProgress(r.progress)}%</span> },
    {
      title: 'Status',
      key: 'status',
      render: (_, r) => {
        const label = jobStatusLabel(r);
        return (
          <Tag color={label.color} data-testid="job-status">
            {label.text}
          </Tag>
        );
      },
    },
    { title: 'Action', key: 'action', render: (_, r) => <JobActions kind={kind} row={r} update={update} removed={removed} /> },
  ];

  return (
    <div>
      <ListHeader title={title} addTo={`/${kind}/create`} />
      <SearchFilterBar
        label="Cari"
        text={text}
        onText={setText}
        onSearch={(v) => apply('search', v)}
        status={status}
        options={STATUS_FILTERS}
        onStatus={(v) => apply('status', v)}
        statusWidth={160}
      />
      {list.error && <Alert type="error" showIcon message={list.error} style={{ marginBottom: 16 }} />}
      <Spin spinning={busy || list.loading}>
        <Table<JobRow>
          rowKey="id"
          dataSource={rows}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: 'Kosong' }}
          onRow={(r) => ({ 'data-testid': `${kind}-row-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
          columns={columns}
        />
      </Spin>
      <Pager page={list.page} totalPages={list.totalPages} onChange={list.setPage} />
    </div>
  );
}
