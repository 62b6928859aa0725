import { useCustomMutation, useInvalidate, useTranslate, type HttpError } from '@refinedev/core';
import { App, Button, Space } from 'antd';
import { useNavigate } from 'react-router';
import type { AccountRow } from '../liveRow';
import { ScheduleMenu } from './Schedule';

/** `code` of the server's 403 when the account has lost its connection. */
const DISCONNECTED = 2;
const DISCONNECTED_TEXT = 'Sambungan terputus, silahkan sambungkan ulang!';

interface Props {
  row: AccountRow;
  /** Applies a change to the row in the list (status, flags, counters the server answered). */
  update: (id: number, patch: Partial<AccountRow>) => void;
}

type BlastAnswer = { data: AccountRow; msg: string };

/**
 * Start Blast / Stop Blast of one WhatsApp account row: 'Starting...' / 'Stopping...' while the call
 * runs; a lost connection shows the 'Forbidden' dialog and leads to reconnecting the account;
 * stopping while a message is being sent asks first ('Sedang mengirim').
 */
export function BlastButton({ row, update }: Props) {
  const t = useTranslate();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const { mutate, mutation } = useCustomMutation<BlastAnswer>();
  const stopping = mutation.isPending && mutation.variables?.url.endsWith('/stop-blasting');
  const sending = row.status === 'sending';

  const refused = (err: HttpError, start: boolean) => {
    const code = (err as HttpError & { code?: number }).code;
    if (err.statusCode === 403 && (code === DISCONNECTED || err.message === DISCONNECTED_TEXT)) {
      modal.error({ title: t('whatsapp.forbidden.title'), content: t('whatsapp.forbidden.content'), onOk: () => navigate(`/whatsapp/create?r=${row.id}`) });
      return;
    }
    const text = err.message || t('whatsapp.networkError');
    modal.error({ title: t('whatsapp.blast.failed'), content: start ? t('whatsapp.blast.retry', { message: text }) : text });
  };

  const call = (start: boolean) => {
    update(row.id, { requesting: true });
    mutate(
      {
        url: start ? '/admin/whatsapp/start-blasting' : '/admin/whatsapp/stop-blasting',
        method: 'post',
        values: start ? { whatsappClientId: row.id, socketClientId: row.clientid, loop: true } : { whatsappClientId: row.id, socketClientId: row.clientid },
        // A refusal is one of the spec's dialogs ('Forbidden', the blast's failure), not a notification.
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          const answer = data.data;
          update(
            row.id,
            start
              ? { status: answer.status, requesting: false, progressing: true }
              : {
                  status: answer.status,
                  count_success: answer.count_success,
                  count_fail: answer.count_fail,
                  income: answer.income,
                  requesting: false,
                  progressing: false,
                  waiting: false,
                  attempting: false,
                },
          );
          void invalidate({ resource: 'whatsapp', invalidates: ['list'] });
        },
        onError: (err) => {
          update(row.id, { requesting: false });
          refused(err, start);
        },
      },
    );
  };

  const askStop = () => {
    // While a message is on its way (not waiting between sends), confirm first.
    if (row.waiting && (row.waitTime ?? 0) > 0) return call(false);
    modal.confirm({
      title: t('whatsapp.blast.stopTitle'),
      content: t('whatsapp.blast.stopContent'),
      okText: t('whatsapp.blast.stopOk'),
      cancelText: t('whatsapp.blast.stopCancel'),
      onOk: () => call(false),
    });
  };

  if (row.suspended) return null;
  if (sending) {
    return (
      <Button size="small" danger onClick={askStop} loading={stopping} disabled={stopping}>
        {stopping ? t('whatsapp.blast.stopping') : t('whatsapp.blast.stop')}
      </Button>
    );
  }
  return (
    <Space.Compact>
      <Button size="small" type="primary" onClick={() => call(true)} loading={row.requesting} disabled={row.requesting}>
        {row.requesting ? t('whatsapp.blast.starting') : t('whatsapp.blast.start')}
      </Button>
      <ScheduleMenu row={row} update={update} />
    </Space.Compact>
  );
}
