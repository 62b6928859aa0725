import { Alert, App, Button, Card, Col, Form, InputNumber, Row, Spin, Statistic, Table, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { Pager } from '../../components/Pager';
import { api, ApiError, errorText } from '../../lib/http';
import { formatDateTime, formatRupiah } from '../../lib/format';
import { getSessionUser } from '../../lib/session';
import { usePaged } from '../../lib/usePaged';
import { useLive } from '../../providers/live';
import { WithdrawStatusTag, type WithdrawRow } from './shared';

const MIN = 10000;
const MIN_MSG = 'Minimal permintaan penarikan adalah Rp 10.000';

interface Summary {
  income: number;
  balance: number;
  requested: number;
  accepted: number;
}

/** /withdraw for members and developers: balance card, request form and their own history. */
export function WithdrawMember() {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const userId = getSessionUser()?.id;
  const [summary, setSummary] = useState<Summary | null>(null);
  const [summaryError, setSummaryError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [form] = Form.useForm<{ nominal: number | null }>();
  const history = usePaged<WithdrawRow>(userId ? '/admin/withdraw/histories-per-page' : null, { user_id: userId }, 'Error fetching History list');

  const loadSummary = useCallback(async () => {
    if (!userId) return;
    try {
      const [income, balance, requested, accepted] = await Promise.all([
        api<{ income: number }>(`/admin/withdraw/income/${userId}`, { fallback: 'Error fetching Income' }),
        api<{ balance: number }>(`/admin/withdraw/balance/${userId}`, { fallback: 'Error fetching Balance' }),
        api<{ total: number }>(`/admin/withdraw/total-requested/${userId}`, { fallback: 'Error fetching Withdraw Total' }),
        api<{ total: number }>(`/admin/withdraw/total-accepted/${userId}`, { fallback: 'Error fetching Withdraw Total' }),
      ]);
      setSummary({ income: income.income, balance: balance.balance, requested: requested.total, accepted: accepted.total });
      setSummaryError(null);
    } catch (err) {
      setSummaryError(errorText(err));
    }
  }, [userId]);
  useEffect(() => {
    void loadSummary();
  }, [loadSummary]);

  // Figures arrive absolute on the member's own channel (accepted, rejected, new income).
  useLive<{ income: number; balance: number; totalRequested: number; totalAccepted: number }>(userId ? String(userId) : null, (msg) => {
    if (msg.event === 'balance') {
      setSummary({ income: msg.data.income, balance: msg.data.balance, requested: msg.data.totalRequested, accepted: msg.data.totalAccepted });
    } else if (msg.event === 'withdraw') history.reload();
  });

  const submit = async ({ nominal }: { nominal: number | null }) => {
    if (nominal === null || nominal === undefined || !Number.isFinite(nominal) || nominal < MIN) {
      modal.warning({ title: 'Gagal', content: MIN_MSG });
      return;
    }
    setSending(true);
    try {
      await api('/admin/withdraw/request', { method: 'POST', body: { nominal, userId }, fallback: 'Network error. Please try again.' });
      modal.success({ title: 'Berhasil', content: 'Permintaan withdraw berhasil dikirim.' });
      form.setFieldsValue({ nominal: MIN });
      history.reload();
      void loadSummary();
    } catch (err) {
      if (err instanceof ApiError && err.code === 1) {
        // No bank account yet: confirming goes to the profile editor.
        modal.error({ title: 'Gagal', content: err.message, onOk: () => navigate('/profile?edit=1') });
      } else {
        modal.error({ title: 'Gagal', content: errorText(err, 'Network error. Please try again.') });
      }
    } finally {
      setSending(false);
    }
  };

  const figure = (title: string, value: number | undefined, testId: string) => (
    <Col xs={12} md={6}>
      <div data-testid={testId}>
        <Card size="small">
          <Statistic title={title} value={value === undefined ? '-' : formatRupiah(value)} valueStyle={{ fontSize: 18 }} />
        </Card>
      </div>
    </Col>
  );

  return (
    <div>
      <PageTitle title="Withdraw" />
      {summaryError && <Alert type="error" showIcon message={summaryError} style={{ marginBottom: 16 }} />}
      <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
        {figure('Pendapatan', summary?.income, 'withdraw-income')}
        {figure('Saldo', summary?.balance, 'withdraw-balance')}
        {figure('Total Permintaan', summary?.requested, 'withdraw-requested')}
        {figure('Total Diterima', summary?.accepted, 'withdraw-accepted')}
      </Row>
      <Typography.Paragraph type="secondary">
        Saldo = pendapatan + bonus + referal − penarikan yang diajukan atau diterima.
      </Typography.Paragraph>
      <Card title="Permintaan Penarikan" style={{ maxWidth: 480, marginBottom: 24 }}>
        <Form form={form} layout="vertical" initialValues={{ nominal: MIN }} onFinish={submit}>
          <Form.Item label="Nominal (Rp.)" name="nominal" rules={[{ required: true, message: 'Nominal wajib diisi.' }]}>
            <InputNumber min={0} precision={0} step={1000} style={{ width: '100%' }} data-testid="withdraw-nominal" />
          </Form.Item>
          <Button type="primary" htmlType="submit" disabled={sending}>
            {sending ? 'Mengirim...' : 'Kirim Permintaan'}
          </Button>
        </Form>
      </Card>
      <Typography.Title level={4}>Riwayat Penarikan</Typography.Title>
      {history.error && <Alert type="error" showIcon message={history.error} style={{ marginBottom: 16 }} />}
      <Spin spinning={history.loading}>
        <div data-testid="withdraw-history">
        <Table<WithdrawRow>
          rowKey="id"
          dataSource={history.rows}
          pagination={false}
          locale={{ emptyText: 'Kosong' }}
          columns={[
            { title: 'Nominal', key: 'nominal', render: (_, r) => formatRupiah(r.nominal) },
            { title: 'Status', key: 'status', render: (_, r) => <WithdrawStatusTag status={r.status} /> },
            { title: 'Tanggal', key: 'createdAt', render: (_, r) => formatDateTime(r.createdAt) },
          ]}
        />
        </div>
      </Spin>
      <Pager page={history.page} totalPages={history.totalPages} onChange={history.setPage} />
    </div>
  );
}
