import { List, useTable } from '@refinedev/antd';
import { useCustom, useCustomMutation, useInvalidate, useTranslate, type HttpError } from '@refinedev/core';
import { App, Button, Card, Col, Form, Row, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ListTable, toFilters } from '../../components/ListTable';
import { formatDateTime, formatRupiah } from '../../lib/format';
import { ApiError } from '../../lib/http';
import { failWith } from '../../lib/notify';
import { getSessionUser } from '../../lib/session';
import { useSingleFlight } from '../../lib/useSingleFlight';
import { useLive } from '../../providers/live';
import { WithdrawStatusTag, type WithdrawRow } from './shared';
import { notANumberRule, TypedNumberInput } from '../../components/FormParts';

const MIN = 10000;

interface Summary {
  income: number;
  balance: number;
  requested: number;
  accepted: number;
}

/** One money figure of the signed-in user through the data provider's custom call. */
function useFigure<K extends string>(path: string, key: K, userId: number | undefined, fallback: string) {
  const call = useCustom<Record<K, number>>({ url: `${path}/${userId ?? 0}`, method: 'get', meta: { fallback }, queryOptions: { enabled: Boolean(userId) }, errorNotification: failWith(fallback) });
  return { value: call.result.data?.[key] as number | undefined, refetch: call.query.refetch };
}

/** /withdraw for members and developers: balance card, request form and their own history. */
export function WithdrawMember() {
  const t = useTranslate();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const userId = getSessionUser()?.id;
  const [form] = Form.useForm<{ nominal: number | null }>();
  const income = useFigure('/admin/withdraw/income', 'income', userId, t('withdraw.errors.income'));
  const balance = useFigure('/admin/withdraw/balance', 'balance', userId, t('withdraw.errors.balance'));
  const requested = useFigure('/admin/withdraw/total-requested', 'total', userId, t('withdraw.errors.total'));
  const accepted = useFigure('/admin/withdraw/total-accepted', 'total', userId, t('withdraw.errors.total'));
  // Live figures arrive absolute and win over the last fetched ones until the next fetch.
  const [live, setLive] = useState<Summary | null>(null);
  const summary: Partial<Summary> = live ?? { income: income.value, balance: balance.value, requested: requested.value, accepted: accepted.value };
  const history = useTable<WithdrawRow, HttpError>({
    resource: 'withdraw',
    filters: { permanent: toFilters({ user_id: userId }) },
    meta: { fallback: t('withdraw.errors.history') },
    queryOptions: { enabled: Boolean(userId) },
    errorNotification: failWith(t('withdraw.errors.history')),
  });
  const { mutateAsync, mutation } = useCustomMutation<{ msg: string }, HttpError, { nominal: number; userId: number | undefined }>();
  const singleFlight = useSingleFlight();

  const refetchFigures = () => {
    setLive(null);
    for (const f of [income, balance, requested, accepted]) void f.refetch();
  };

  // Figures arrive absolute on the member's own channel (accepted, rejected, new income).
  useLive<{ income: number; balance: number; totalRequested: number; totalAccepted: number }>(userId ? String(userId) : null, (msg) => {
    if (msg.event === 'balance') {
      setLive({ income: msg.data.income, balance: msg.data.balance, requested: msg.data.totalRequested, accepted: msg.data.totalAccepted });
    } else if (msg.event === 'withdraw') void invalidate({ resource: 'withdraw', invalidates: ['list'] });
  });

  // One request per click: a double click must not ask for the money twice.
  const submit = singleFlight(async ({ nominal }: { nominal: number | null }) => {
    if (nominal === null || nominal === undefined || !Number.isFinite(nominal) || nominal < MIN) {
      modal.warning({ title: t('shared.failed'), content: t('withdraw.minimum') });
      return;
    }
    const noBank = (err: unknown) => err instanceof ApiError && err.code === 1;
    try {
      // A refusal is told by the notification provider, except the one the spec gives a dialog (below).
      await mutateAsync({
        url: '/admin/withdraw/request',
        method: 'post',
        values: { nominal, userId },
        errorNotification: (err) => (noBank(err) ? false : failWith(t('shared.network'))(err)),
      });
    } catch (err) {
      // No bank account yet: confirming goes to the profile editor.
      if (noBank(err) && err instanceof ApiError) modal.error({ title: t('shared.failed'), content: err.message, onOk: () => navigate('/profile?edit=1') });
      return;
    }
    // The spec's success dialog stands in for a notification (a custom call has none of its own).
    modal.success({ title: t('shared.success'), content: t('withdraw.requested') });
    form.setFieldsValue({ nominal: MIN });
    void invalidate({ resource: 'withdraw', invalidates: ['list'] });
    refetchFigures();
  });

  const figure = (key: keyof Summary, testId: string) => (
    <Col xs={12} md={6}>
      <div data-testid={testId}>
        <Card size="small">
          <Statistic title={t(`withdraw.figures.${key}`)} value={summary[key] === undefined ? '-' : formatRupiah(summary[key])} valueStyle={{ fontSize: 18 }} />
        </Card>
      </div>
    </Col>
  );

  return (
    <List title={t('withdraw.title')} breadcrumb={false}>
      <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
        {figure('income', 'withdraw-income')}
        {figure('balance', 'withdraw-balance')}
        {figure('requested', 'withdraw-requested')}
        {figure('accepted', 'withdraw-accepted')}
      </Row>
      <Typography.Paragraph type="secondary">{t('withdraw.balanceRule')}</Typography.Paragraph>
      <Card title={t('withdraw.requestTitle')} style={{ maxWidth: 480, marginBottom: 24 }}>
        <Form form={form} layout="vertical" initialValues={{ nominal: MIN }} onFinish={submit}>
          <Form.Item
            label={t('withdraw.nominal')}
            name="nominal"
            validateFirst
            // What was typed is sent or refused as it is: a decimal is not rounded into another amount.
            rules={[
              notANumberRule(t('withdraw.nominal')),
              { required: true, message: t('withdraw.nominalRequired') },
              { type: 'integer', message: t('withdraw.nominalWhole') },
            ]}
          >
            <TypedNumberInput step={1000} style={{ width: '100%' }} data-testid="withdraw-nominal" />
          </Form.Item>
          <Button type="primary" htmlType="submit" disabled={mutation.isPending}>
            {mutation.isPending ? t('shared.sending') : t('withdraw.submit')}
          </Button>
        </Form>
      </Card>
      <Typography.Title level={4}>{t('withdraw.history')}</Typography.Title>
      <div data-testid="withdraw-history">
        <ListTable<WithdrawRow>
          table={history}
          columns={[
            { title: t('withdraw.fields.nominal'), key: 'nominal', render: (_, r) => <span className="nowrap">{formatRupiah(r.nominal)}</span> },
            { title: t('withdraw.fields.status'), key: 'status', render: (_, r) => <WithdrawStatusTag status={r.status} /> },
            { title: t('withdraw.fields.date'), key: 'createdAt', render: (_, r) => formatDateTime(r.createdAt) },
          ]}
        />
      </div>
    </List>
  );
}
