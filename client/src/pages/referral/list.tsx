import { Alert, App, Button, Card, Input, Space, Spin, Table, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { Pager } from '../../components/Pager';
import { api, errorText, query } from '../../lib/http';
import { formatRupiah } from '../../lib/format';
import { getSessionUser } from '../../lib/session';

interface ReferralRow {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  income: number;
}

interface ReferralAnswer {
  list: ReferralRow[];
  total: number;
  meta: { totalPages: number };
}

export function referralLink(code: string): string {
  return `${window.location.origin}/signup?referral=${encodeURIComponent(code)}`;
}

/** The members the signed-in member referred, with what each has earned them; the list loads for members only. */
export function ReferralList() {
  const { message } = App.useApp();
  const user = getSessionUser();
  const isMember = user?.role === 'member';
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [rows, setRows] = useState<ReferralRow[]>([]);
  const [total, setTotal] = useState(0);
  const [totalPages, setTotalPages] = useState(1);
  const [loading, setLoading] = useState(isMember);
  const [error, setError] = useState<string | null>(null);
  const [code, setCode] = useState<string | null>(typeof user?.referral_code === 'string' ? user.referral_code : null);
  const userId = user?.id;

  useEffect(() => {
    if (!isMember || !userId) return;
    let live = true;
    setLoading(true);
    api<ReferralAnswer>(`/admin/users/referral-per-page${query({ page, userId })}`, { fallback: 'Error fetching Referral list' })
      .then((res) => {
        if (!live) return;
        setRows(res.list ?? []);
        setTotal(res.total ?? 0);
        setTotalPages(res.meta?.totalPages ?? 1);
        setError(null);
      })
      .catch((err: unknown) => live && setError(errorText(err, 'Error fetching Referral list')))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [isMember, userId, page]);

  // The cookie may predate the referral code; the user record always has it.
  useEffect(() => {
    if (code || !userId) return;
    api<{ user: { referral_code: string } }>(`/admin/users/${userId}`)
      .then((res) => setCode(res.user.referral_code))
      .catch(() => undefined);
  }, [code, userId]);

  const copy = async () => {
    if (!code) return;
    try {
      await navigator.clipboard.writeText(referralLink(code));
      void message.success('Link copied to clipboard!');
    } catch {
      void message.error('Failed to copy the link.');
    }
  };

  const setPage = (p: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(p));
    setParams(next, { replace: true });
  };

  return (
    <div>
      <PageTitle title="Daftar Referal" extra={<Typography.Title level={4} style={{ margin: 0 }}>Total : {formatRupiah(total)}</Typography.Title>} />
      {code && (
        <Card size="small" style={{ marginBottom: 16 }}>
          <Typography.Text type="secondary">Bagikan link referal Anda:</Typography.Text>
          <Space.Compact style={{ width: '100%', marginTop: 8 }}>
            <Input readOnly value={referralLink(code)} data-testid="referral-link" />
            <Button icon={<CopyOutlined />} onClick={() => void copy()}>
              Copy
            </Button>
          </Space.Compact>
        </Card>
      )}
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Spin spinning={loading}>
        <Table<ReferralRow>
          rowKey="id"
          dataSource={rows}
          pagination={false}
          locale={{ emptyText: 'Kosong' }}
          columns={[
            {
              title: 'Dari',
              key: 'from',
              render: (_, r) => (
                <div>
                  <div>{`${r.firstname} ${r.lastname}`.trim()}</div>
                  <Typography.Text type="secondary">{r.email}</Typography.Text>
                </div>
              ),
            },
            { title: 'Nominal', key: 'income', render: (_, r) => formatRupiah(r.income) },
          ]}
        />
      </Spin>
      <Pager page={page} totalPages={totalPages} onChange={setPage} />
    </div>
  );
}
