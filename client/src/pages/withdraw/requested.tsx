import { List, useTable } from '@refinedev/antd';
import { useCustomMutation, useInvalidate, useTranslate, type HttpError } from '@refinedev/core';
import { App, Button, Descriptions, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { ListTable } from '../../components/ListTable';
import { PendingText } from '../../components/PendingText';
import { formatDateTime, formatRupiah } from '../../lib/format';
import { failWith } from '../../lib/notify';
import { focusRowAction, rowPlace } from '../../lib/rowFocus';
import { serverText } from '../../lib/serverError';
import { useCanAtOnce } from '../../providers/access';
import { useLive } from '../../providers/live';
import { WithdrawStatusTag, type WithdrawRow, type WithdrawStatus } from './shared';

const ACTIONS: Record<WithdrawStatus, Array<{ to: WithdrawStatus; label: string; danger?: boolean }>> = {
  requested: [
    { to: 'accepted', label: 'accept' },
    { to: 'rejected', label: 'reject', danger: true },
  ],
  accepted: [{ to: 'requested', label: 'undo' }],
  rejected: [{ to: 'requested', label: 'undo' }],
};

const fullName = (u: { firstname: string; lastname: string }) => `${u.firstname} ${u.lastname}`.trim();

/** /withdraw/requested: every request; admin acts on them, staff and dev read. */
export function WithdrawRequested() {
  const t = useTranslate();
  const { modal } = App.useApp();
  const invalidate = useInvalidate();
  // The spec lets admin act on requests; staff and dev only read them (the page is theirs too).
  // Known from the first render: the admin's action column does not appear after the rows.
  const isAdmin = useCanAtOnce({ resource: 'withdraw', action: 'decide' });
  const adminChannel = useCanAtOnce({ resource: 'live', action: 'admin' });
  const table = useTable<WithdrawRow, HttpError>({ resource: 'withdraw', meta: { fallback: t('withdraw.errors.all') }, errorNotification: failWith(t('withdraw.errors.all')) });
  const { mutate } = useCustomMutation<{ msg: string; code?: string; withdraw: WithdrawRow }, HttpError, { id: number; status: WithdrawStatus }>();
  const [busy, setBusy] = useState<Set<number>>(new Set());

  // Another admin's decision or a new request arrives on the admin channel; the list is fetched again.
  useLive<WithdrawRow>(adminChannel ? 'admin' : null, (msg) => {
    if (msg.event === 'withdraw') void invalidate({ resource: 'withdraw', invalidates: ['list'] });
  });

  const showBank = (row: WithdrawRow) =>
    modal.info({
      title: row.User ? fullName(row.User) : t('withdraw.bank.someone'),
      content: (
        <Descriptions column={1} size="small" data-testid="bank-details">
          <Descriptions.Item label={t('withdraw.bank.email')}>{row.User?.email ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('withdraw.bank.bank')}>{row.User?.account_bank || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('withdraw.bank.number')}>{row.User?.account_number || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('withdraw.bank.name')}>{row.User?.account_name || '-'}</Descriptions.Item>
        </Descriptions>
      ),
    });

  const setRowBusy = (id: number, on: boolean) =>
    setBusy((b) => {
      const next = new Set(b);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  // Keyboard focus comes back to the row's buttons ('Batalkan' after Terima) once the dialog closes (lib/rowFocus).
  const change = (row: WithdrawRow, status: WithdrawStatus, button: HTMLElement) => {
    const place = rowPlace(button);
    setRowBusy(row.id, true);
    mutate(
      { url: '/admin/withdraw/update', method: 'put', values: { id: row.id, status }, errorNotification: failWith(t('shared.network')) },
      {
        onSuccess: async ({ data }) => {
          // The spec's success dialog ('Permintaan withdraw Diterima') stands in for a notification (a custom call has none of its own).
          modal.success({ title: serverText(data.msg, data.code, t), afterClose: () => focusRowAction(place) });
          // The row keeps 'Mengirim...' until the refetched list shows its new status.
          await invalidate({ resource: 'withdraw', invalidates: ['list'] });
          setRowBusy(row.id, false);
        },
        onError: () => {
          setRowBusy(row.id, false);
          focusRowAction(place);
        },
      },
    );
  };

  const columns: ColumnsType<WithdrawRow> = [
    {
      title: t('withdraw.fields.member'),
      key: 'member',
      render: (_, r) => (
        <Button type="link" style={{ padding: 0 }} onClick={() => showBank(r)}>
          {r.User ? fullName(r.User) : '-'}
        </Button>
      ),
    },
    { title: t('withdraw.fields.nominal'), key: 'nominal', render: (_, r) => <span className="nowrap">{formatRupiah(r.nominal)}</span> },
    { title: t('withdraw.fields.status'), key: 'status', render: (_, r) => <WithdrawStatusTag status={r.status} /> },
    { title: t('withdraw.fields.date'), key: 'createdAt', render: (_, r) => formatDateTime(r.createdAt) },
    ...(isAdmin
      ? [
          {
            title: t('shared.action'),
            key: 'action',
            fixed: 'right' as const,
            render: (_: unknown, r: WithdrawRow) =>
              busy.has(r.id) ? (
                <PendingText>{t('shared.sending')}</PendingText>
              ) : (
                <Space>
                  {ACTIONS[r.status].map((a) => (
                    <Button key={a.to} size="small" danger={a.danger} onClick={(e) => change(r, a.to, e.currentTarget)} data-row-action={a.label}>
                      {t(`withdraw.actions.${a.label}`)}
                    </Button>
                  ))}
                </Space>
              ),
          },
        ]
      : []),
  ];

  return (
    <List title={t('withdraw.requestedTitle')} breadcrumb={false}>
      <ListTable<WithdrawRow> table={table} columns={columns} />
    </List>
  );
}
