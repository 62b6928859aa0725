import { useCustom, useInvalidate, useTranslate } from '@refinedev/core';
import type { ColumnsType } from 'antd/es/table';
import { ListHeader } from '../../components/ListHeader';
import { ListTable, useListTable } from '../../components/ListTable';
import { RowDelete } from '../../components/RowDelete';
import { formatDateTime, formatRupiah } from '../../lib/format';
import { getSessionUser } from '../../lib/session';
import { useLive } from '../../providers/live';

interface BonusRow {
  id: number;
  nominal: number;
  reason: string;
  createdAt: string;
  userId: number;
  adminId: number | null;
  User: { firstname: string; lastname: string; email: string } | null;
}

const fullName = (u: { firstname: string; lastname: string }) => `${u.firstname} ${u.lastname}`.trim();

const NOTE = { minWidth: 160, maxWidth: 420, overflowWrap: 'anywhere' } as const;

/** /bonus: every bonus for admin and dev (with delete), a member's own with their total. */
export function BonusList() {
  const t = useTranslate();
  const user = getSessionUser();
  const userId = user?.id;
  const manager = user?.role === 'admin' || user?.role === 'dev';
  const invalidate = useInvalidate();
  const fallback = t('bonus.errors.list');
  const list = useListTable<BonusRow>({ resource: 'bonus', params: { user_id: manager ? null : userId }, fallback, enabled: Boolean(user) });
  const totalCall = useCustom<{ totalBonus: number }>({
    url: `/admin/bonus/total/${userId ?? 0}`,
    method: 'get',
    meta: { fallback },
    queryOptions: { enabled: Boolean(userId) && !manager },
    errorNotification: false,
  });
  const total = totalCall.result.data?.totalBonus ?? null;

  // A bonus sent or taken back while a member has the page open shows at once. Balance events also
  // follow every blast earning, so the list is fetched again only when the bonus total actually moved.
  useLive<{ totalBonus: number }>(!manager && userId ? String(userId) : null, (msg) => {
    if (msg.event !== 'balance' || msg.data.totalBonus === total) return;
    void totalCall.query.refetch();
    void invalidate({ resource: 'bonus', invalidates: ['list'] });
  });

  const columns: ColumnsType<BonusRow> = [
    ...(manager ? [{ title: t('bonus.fields.member'), key: 'member', render: (_: unknown, r: BonusRow) => (r.User ? fullName(r.User) : '-') }] : []),
    { title: t('bonus.fields.nominal'), key: 'nominal', render: (_, r) => <span className="nowrap">{formatRupiah(r.nominal)}</span> },
    // A note is free text: it wraps, even inside a long word, so the columns after it stay in view.
    { title: t('bonus.fields.reason'), key: 'reason', render: (_, r) => <div style={NOTE}>{r.reason}</div> },
    { title: manager ? t('bonus.fields.createdAt') : t('bonus.fields.receivedAt'), key: 'createdAt', render: (_, r) => <span className="nowrap">{formatDateTime(r.createdAt)}</span> },
    ...(manager
      ? [
          {
            title: t('shared.action'),
            key: 'action',
            render: (_: unknown, r: BonusRow) => (
              <RowDelete
                resource="bonus"
                id={r.id}
                title={t('bonus.confirmTitle')}
                content={t('bonus.confirmContent', { nominal: formatRupiah(r.nominal), name: r.User?.firstname ?? t('bonus.someMember') })}
              />
            ),
          },
        ]
      : []),
  ];

  return (
    <div>
      <ListHeader title={manager ? t('bonus.title') : t('bonus.memberTitle', { total: formatRupiah(total ?? 0) })} addTo={manager && '/bonus/create'} addLabel={t('bonus.send')} />
      <ListTable<BonusRow> list={list} columns={columns} />
    </div>
  );
}
