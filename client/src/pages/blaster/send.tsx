import { useCustom, useCustomMutation, useDataProvider, useTranslate } from '@refinedev/core';
import { App, Button, Card, Form, Input, Spin } from 'antd';
import { FormSelect } from '../../components/FormSelect';
import { useEffect, useRef, useState } from 'react';
import { PageTitle } from '../../components/PageTitle';
import { errorText } from '../../lib/http';
import { failWith } from '../../lib/notify';
import { formatCount } from '../../lib/format';

interface Sender {
  id: number;
  deviceId: string;
  clientid: string;
  phonenumber: string | null;
}

interface Receiver {
  id: number;
  number: string;
  name: string;
  status: 'active' | 'nonactive';
}

interface SendAnswer {
  msg: string;
  sent: number;
  failed?: Array<{ number: string; error: string }>;
  skippedCount: number;
  optedOutCount: number;
}

/** The gateway's failure codes that have the console's words (blaster.reasons); others show as sent. */
const FAIL_REASONS = new Set(['not_registered', 'invalid_number', 'timeout', 'rate_limited', 'failed', 'not_connected', 'unknown_device']);
/** Failed numbers listed in the dialog; the rest are counted. */
const FAILED_SHOWN = 20;

/** The spec's success text, and when some receivers failed, how many got it and which failed why. */
function SentReport({ res, t }: { res: SendAnswer; t: ReturnType<typeof useTranslate> }) {
  const failed = res.failed ?? [];
  const skipped = res.skippedCount ? t('blaster.skipped', { count: res.skippedCount, skipped: formatCount(res.skippedCount), optedOut: formatCount(res.optedOutCount) }) : '';
  const more = failed.length - FAILED_SHOWN;
  return (
    <div>
      <p style={{ margin: 0 }}>{`${t('blaster.sent')}${skipped}`}</p>
      {failed.length > 0 && (
        <>
          <p style={{ margin: '8px 0 4px' }}>
            {t('blaster.partial', { count: failed.length, sent: formatCount(res.sent), total: formatCount(res.sent + failed.length), failed: formatCount(failed.length) })}
          </p>
          <ul aria-label={t('blaster.failedList')} style={{ margin: 0, paddingLeft: 20, maxHeight: 240, overflow: 'auto' }}>
            {failed.slice(0, FAILED_SHOWN).map((f) => (
              <li key={f.number}>
                <span style={{ whiteSpace: 'nowrap' }}>{f.number}</span>: {FAIL_REASONS.has(f.error) ? t(`blaster.reasons.${f.error}`) : f.error}
              </li>
            ))}
          </ul>
          {more > 0 && <p style={{ margin: '4px 0 0' }}>{t('blaster.moreFailed', { count: more, more: formatCount(more) })}</p>}
        </>
      )}
    </div>
  );
}

interface Values {
  sender?: number;
  message?: string;
  receivers?: string[];
}

const ALL = 'All';
/** The dropdowns load after this delay, as the spec says. */
const LOAD_DELAY_MS = 1000;
const SEARCH_DELAY_MS = 300;

/** 'Blaster Whatsapp Message' (/blaster, admin and dev): one message from one account to chosen numbers. */
export function BlasterSend() {
  const t = useTranslate();
  const { modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [ready, setReady] = useState(false);
  const [search, setSearch] = useState('');
  const searchTimer = useRef<number | undefined>(undefined);

  useEffect(() => {
    const timer = window.setTimeout(() => setReady(true), LOAD_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  const sendersCall = useCustom<{ list: Sender[] }>({
    url: '/admin/whatsapp/list',
    method: 'get',
    meta: { fallback: t('blaster.loadSendersError') },
    queryOptions: { enabled: ready, retry: false },
    errorNotification: failWith(t('blaster.loadSendersError')),
  });
  // Active numbers matching the search (the server answers at most 1,000; the search narrows them).
  const receiversCall = useCustom<{ list: Receiver[] }>({
    url: '/admin/phonenumber/list',
    method: 'get',
    config: { query: { search } },
    meta: { fallback: t('blaster.loadReceiversError') },
    // A new search keeps the last numbers on screen until its answer comes.
    queryOptions: { enabled: ready, retry: false, placeholderData: (previous) => previous },
    errorNotification: failWith(t('blaster.loadReceiversError')),
  });
  const senders = sendersCall.query.isError ? [] : sendersCall.query.data ? sendersCall.result.data.list : null;
  const receivers = receiversCall.query.data ? receiversCall.result.data.list.filter((r) => r.status === 'active') : receiversCall.query.isError ? [] : null;
  const searching = receiversCall.query.isFetching && receivers !== null;

  const chosen = Form.useWatch('sender', form);
  const sender = senders?.find((s) => s.id === chosen);
  const dataProvider = useDataProvider();
  const { mutateAsync: send } = useCustomMutation<SendAnswer>();
  const [sending, setSending] = useState(false);

  const onSearch = (text: string) => {
    window.clearTimeout(searchTimer.current);
    searchTimer.current = window.setTimeout(() => setSearch(text.trim()), SEARCH_DELAY_MS);
  };

  const submit = async (values: Values) => {
    if (!sender || sender.id !== values.sender || !values.message?.trim() || !values.receivers?.length) return;
    setSending(true);
    try {
      // The sender's connection, read as the form is sent: only a connected account sends.
      const { data } = await dataProvider().custom!<{ state: string }>({
        url: `/admin/whatsapp/client-state/${encodeURIComponent(sender.deviceId)}`,
        method: 'get',
        meta: { fallback: t('blaster.sendError') },
      });
      const { state } = data;
      if (state !== 'CONNECTED') {
        modal.error({ title: t('blaster.failedTitle'), content: t('blaster.notConnected', { sender: sender.phonenumber ?? sender.clientid, state }) });
        return;
      }
      const targets = values.receivers.includes(ALL) ? ALL : values.receivers.join(',');
      const { data: res } = await send({
        url: '/admin/whatsapp/send-message/1',
        method: 'post',
        values: { senders: sender.phonenumber ?? sender.clientid, targets, message: values.message },
        meta: { fallback: t('blaster.sendError') },
        // A refusal is the spec's 'Gagal!' dialog (below), not a notification.
        errorNotification: false,
      });
      // All delivered: the spec's dialog. Some failed: the same dialog as a warning, with the report under it.
      const open = res.failed?.length ? modal.warning : modal.success;
      open({ title: t('blaster.sentTitle'), content: <SentReport res={res} t={t} />, width: res.failed?.length ? 520 : undefined });
    } catch (err) {
      modal.error({ title: t('blaster.failedTitle'), content: errorText(err, t('blaster.sendError')) });
    } finally {
      setSending(false);
    }
  };

  const receiverOptions = [
    { value: ALL, label: t('blaster.all') },
    ...(receivers ?? []).map((r) => ({ value: r.number, label: r.name ? `${r.number} - ${r.name}` : r.number })),
  ];

  return (
    <div>
      <PageTitle title={t('blaster.title')} />
      <Card>
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false} style={{ maxWidth: 720 }}>
          <Form.Item label={t('blaster.fields.sender')} name="sender" rules={[{ required: true, message: t('blaster.rules.sender') }]}>
            <FormSelect
              aria-label={t('blaster.fields.sender')}
              placeholder={t('blaster.placeholders.sender')}
              loading={senders === null}
              showSearch
              optionFilterProp="label"
              options={(senders ?? []).map((s) => ({ value: s.id, label: `${s.clientid} - ${s.phonenumber ?? '-'}` }))}
            />
          </Form.Item>
          <Form.Item label={t('blaster.fields.message')} name="message" rules={[{ required: true, whitespace: true, message: t('blaster.rules.message') }]}>
            <Input.TextArea aria-label={t('blaster.fields.message')} rows={6} placeholder={t('blaster.placeholders.message')} />
          </Form.Item>
          <Form.Item label={t('blaster.fields.receivers')} name="receivers" rules={[{ required: true, message: t('blaster.rules.receivers') }]}>
            <FormSelect
              aria-label={t('blaster.fields.receivers')}
              mode="multiple"
              placeholder={t('blaster.placeholders.receivers')}
              loading={receivers === null || searching}
              showSearch
              filterOption={false}
              onSearch={onSearch}
              notFoundContent={receivers === null || searching ? <Spin size="small" /> : t('blaster.empty')}
              options={receiverOptions}
              virtual
              maxTagCount="responsive"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={sending} disabled={sending}>
            {sending ? t('blaster.sending') : t('blaster.send')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
