import { Alert, App, Button, Descriptions, Space, Spin, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { PageTitle } from '../../components/PageTitle';
import { Pager } from '../../components/Pager';
import { api, errorText } from '../../lib/http';
import { formatDateTime, formatRupiah } from '../../lib/format';
import { getSessionUser } from '../../lib/session';
import { usePaged } from '../../lib/usePaged';
import { useLive } from '../../providers/live';
import { WithdrawStatusTag, type WithdrawRow, type WithdrawStatus } from './shared';

const ACTIONS: Record<WithdrawStatus, Array<{ to: WithdrawStatus; label: string; danger?: boolean }>> = {
  requested: [
    { to: 'accepted', label: 'Terima' },
    { to: 'rejected', label: 'Tolak', danger: true },
  ],
  accepted: [{ to: 'requested', label: 'Batalkan' }],
  rejected: [{ to: 'requested', label: 'Batalkan' }],
};

/** /withdraw/requested: every request; admin acts on them, staff and dev read. */
export function WithdrawRequested() {
  const { modal } = App.useApp();
  const role = getSessionUser()?.role;
  const isAdmin = role === 'admin';
  const list = usePaged<WithdrawRow>('/admin/withdraw/histories-per-page', {}, 'Error fetching All History list');
  const [busy, setBusy] = useState<Set<number>>(new Set());

  useLive<WithdrawRow>(role === 'admin' || role === 'dev' ? 'admin' : null, (msg) => {
    if (msg.event !== 'withdraw') return;
    const known = list.rows.some((r) => r.id === msg.data.id);
    if (known) list.setRows((rows) => rows.map((r) => (r.id === msg.data.id ? { ...r, ...msg.data } : r)));
    else if (list.page === 1) list.reload();
  });

  const showBank = (row: WithdrawRow) =>
    modal.info({
      title: row.User ? `${row.User.firstname} ${row.User.lastname}`.trim() : 'Member',
      content: (
        <Descriptions column={1} size="small" data-testid="bank-details">
          <Descriptions.Item label="Email">{row.User?.email ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="Bank">{row.User?.account_bank || '-'}</Descriptions.Item>
          <Descriptions.Item label="Nomor Rekening">{row.User?.account_number || '-'}</Descriptions.Item>
          <Descriptions.Item label="Nama Rekening">{row.User?.account_name || '-'}</Descriptions.Item>
        </Descriptions>
      ),
    });

  const change = async (row: WithdrawRow, status: WithdrawStatus) => {
    setBusy((b) => new Set(b).add(row.id));
    try {
      const res = await api<{ msg: string; withdraw: WithdrawRow }>('/admin/withdraw/update', {
        method: 'PUT',
        body: { id: row.id, status },
        fallback: 'Network error. Please try again.',
      });
      list.setRows((rows) => rows.map((r) => (r.id === row.id ? res.withdraw : r)));
      modal.success({ title: res.msg });
    } catch (err) {
      modal.error({ title: 'Gagal', content: errorText(err, 'Network error. Please try again.') });
    } finally {
      setBusy((b) => {
        const next = new Set(b);
        next.delete(row.id);
        return next;
      });
    }
  };

  const columns: ColumnsType<WithdrawRow> = [
    {
      title: 'Member',
      key: 'member',
      render: (_, r) => (
        <Button type="link" style={{ padding: 0 }} onClick={() => showBank(r)}>
          {r.User ? `${r.User.firstname} ${r.User.lastname}`.trim() : '-'}
        </Button>
      ),
    },
    { title: 'Nominal', key: 'nominal', render: (_, r) => formatRupiah(r.nominal) },
    { title: 'Status', key: 'status', render: (_, r) => <WithdrawStatusTag status={r.status} /> },
    { title: 'Tanggal', key: 'createdAt', render: (_, r) => formatDateTime(r.createdAt) },
    ...(isAdmin
      ? [
          {
            title: 'Action',
            key: 'action',
            render: (_: unknown, r: WithdrawRow) =>
              busy.has(r.id) ? (
                'Mengirim...'
              ) : (
                <Space>
                  {ACTIONS[r.status].map((a) => (
                    <Button key={a.to} size="small" danger={a.danger} onClick={() => void change(r, a.to)}>
                      {a.label}
                    </Button>
                  ))}
                </Space>
              ),
          },
        ]
      : []),
  ];

  return (
    <div>
      <PageTitle title="Permintaan Withdraw" />
      {list.error && <Alert type="error" showIcon message={list.error} style={{ marginBottom: 16 }} />}
      <Spin spinning={list.loading}>
        <Table<WithdrawRow> rowKey="id" dataSource={list.rows} pagination={false} scroll={{ x: true }} locale={{ emptyText: 'Kosong' }} columns={columns} />
      </Spin>
      <Pager page={list.page} totalPages={list.totalPages} onChange={list.setPage} />
    </div>
  );
}
