import { CopyOutlined } from '@ant-design/icons';
import { List, useTable } from '@refinedev/antd';
import { useOne, useTranslate, type HttpError } from '@refinedev/core';
import { App, Button, Card, Input, Space, Typography } from 'antd';
import { ListTable, toFilters, useListPaging } from '../../components/ListTable';
import { formatRupiah } from '../../lib/format';
import { failWith } from '../../lib/notify';
import { getSessionUser } from '../../lib/session';

interface ReferralRow {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  income: number;
}

export function referralLink(code: string): string {
  return `${window.location.origin}/signup?referral=${encodeURIComponent(code)}`;
}

/** /referral (members only): their referral link and the members they referred, with what each earned them. */
export function ReferralList() {
  const t = useTranslate();
  const { message } = App.useApp();
  const user = getSessionUser();
  const userId = user?.id;
  const table = useTable<ReferralRow, HttpError>({
    resource: 'referral',
    filters: { permanent: toFilters({ userId }) },
    meta: { fallback: t('referral.errors.list') },
    queryOptions: { enabled: Boolean(userId) },
    errorNotification: failWith(t('referral.errors.list')),
  });
  const total = Number(useListPaging(table).extra.total ?? 0);
  const cookieCode = typeof user?.referral_code === 'string' && user.referral_code ? user.referral_code : null;
  // The cookie may predate the referral code; the user record always has it.
  const record = useOne<{ referral_code: string }>({ resource: 'user', id: userId ?? 0, queryOptions: { enabled: !cookieCode && Boolean(userId) }, errorNotification: failWith(t('referral.errors.list')) });
  const code = cookieCode ?? record.result?.referral_code ?? null;

  const copy = async () => {
    if (!code) return;
    try {
      await navigator.clipboard.writeText(referralLink(code));
      void message.success(t('referral.copied'));
    } catch {
      void message.error(t('referral.copyFailed'));
    }
  };

  return (
    <List
      title={t('referral.title')}
      breadcrumb={false}
      headerButtons={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('referral.total', { total: formatRupiah(total) })}
        </Typography.Title>
      }
    >
      {code && (
        <Card size="small" style={{ marginBottom: 16 }}>
          <Typography.Text type="secondary">{t('referral.share')}</Typography.Text>
          <Space.Compact style={{ width: '100%', marginTop: 8 }}>
            <Input readOnly value={referralLink(code)} data-testid="referral-link" aria-label={t('referral.share')} />
            <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copy()}>
              {t('referral.copy')}
            </Button>
          </Space.Compact>
        </Card>
      )}
      <ListTable<ReferralRow>
        table={table}
        columns={[
          {
            title: t('referral.fields.from'),
            key: 'from',
            render: (_, r) => (
              <div>
                <div>{`${r.firstname} ${r.lastname}`.trim()}</div>
                <Typography.Text type="secondary">{r.email}</Typography.Text>
              </div>
            ),
          },
          { title: t('referral.fields.nominal'), key: 'income', render: (_, r) => formatRupiah(r.income) },
        ]}
      />
    </List>
  );
}
