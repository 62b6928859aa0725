import { List, useTable } from '@refinedev/antd';
import { useCustom, useInvalidate, useTranslate, type HttpError } from '@refinedev/core';
import type { ColumnsType } from 'antd/es/table';
import { AddButton } from '../../components/AddButton';
import { ListTable, toFilters } from '../../components/ListTable';
import { RowDelete } from '../../components/RowDelete';
import { formatDateTime, formatRupiah } from '../../lib/format';
import { failWith } from '../../lib/notify';
import { getSessionUser } from '../../lib/session';
import { useCanAtOnce } from '../../providers/access';
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
  // Who may send bonuses (the /bonus/create page) sees every bonus, a Member column and Delete.
  // Known from the first render, so the columns and the title do not switch once Refine's answer comes.
  const manager = useCanAtOnce({ resource: 'bonus', action: 'create', params: { path: '/bonus/create' } });
  const invalidate = useInvalidate();
  const fallback = t('bonus.errors.list');
  const table = useTable<BonusRow, HttpError>({
    resource: 'bonus',
    filters: { permanent: toFilters({ user_id: manager ? null : userId }) },
    meta: { fallback },
    queryOptions: { enabled: Boolean(user) },
    errorNotification: failWith(fallback),
  });
  const totalCall = useCustom<{ totalBonus: number }>({
    url: `/admin/bonus/total/${userId ?? 0}`,
    method: 'get',
    meta: { fallback },
    queryOptions: { enabled: Boolean(userId) && !manager },
    errorNotification: failWith(fallback),
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
            fixed: 'right' as const,
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
    <List
      title={manager ? t('bonus.title') : t('bonus.memberTitle', { total: formatRupiah(total ?? 0) })}
      breadcrumb={false}
      headerButtons={<AddButton resource="bonus" label={t('bonus.send')} />}
    >
      <ListTable<BonusRow> table={table} columns={columns} />
    </List>
  );
}
