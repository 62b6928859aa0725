import { useCustom, useCustomMutation, useDelete, useInvalidate, useTranslate, type HttpError } from '@refinedev/core';
import { App, Button, Space } from 'antd';
import { Link, useNavigate } from 'react-router';
import { PendingText } from '../../components/PendingText';
import { doneWith, failWith } from '../../lib/notify';
import { focusAfterRowGone, focusRowAction, rowPlace } from '../../lib/rowFocus';
import { accountCanRunJobs, DISCONNECTED_MESSAGE } from '../../../../common/jobs';
import type { JobKind, JobRow } from './jobRow';

const FILES: Record<JobKind, string> = {
  generator: 'phone_numbers_generated.csv',
  validator: 'phone_numbers_validated.csv',
};

/** `code` of the server's 403 when the job's account has lost its connection. */
const DISCONNECTED_CODE = 2;

interface Props {
  kind: JobKind;
  row: JobRow;
  /** Changes the row on screen (flags, the values a call answered) until the list is fetched again. */
  update: (id: number, patch: Partial<JobRow> | ((row: JobRow) => Partial<JobRow>)) => void;
}

type JobAnswer = Record<JobKind, JobRow>;

/** Start/Stop, Download, Delete and Edit of one generator or validator row. */
export function JobActions({ kind, row, update }: Props) {
  const t = useTranslate();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const { mutate: call } = useCustomMutation<JobAnswer>();
  const { mutate: remove, mutation: removal } = useDelete();
  const { query: result } = useCustom<{ list: Array<{ number: string; name: string }> }>({
    url: `/admin/${kind}/download-result/${row.id}`,
    method: 'get',
    queryOptions: { enabled: false, retry: false },
    errorNotification: failWith(t('jobs.readError')),
  });
  // A disconnected account's refusal is the spec's 'Forbidden' dialog; any other goes to the notifications.
  const isDisconnected = (err: HttpError) => {
    const code = (err as HttpError & { code?: number | string }).code;
    return err.statusCode === 403 && (code === DISCONNECTED_CODE || code === 'disconnected' || err.message === DISCONNECTED_MESSAGE);
  };

  // 'Forbidden', then to the account's reconnect screen (spec 5).
  const forbidden = () =>
    modal.error({
      title: t('jobs.forbidden.title'),
      content: t('jobs.forbidden.content'),
      onOk: () => navigate(row.whatsapp_id ? `/whatsapp/create?r=${row.whatsapp_id}` : `/whatsapp/create?type=${kind}`),
    });

  const toggle = () => {
    if (!accountCanRunJobs(row.Whatsapp?.state)) {
      forbidden();
      return;
    }
    const action = row.status === 'sending' ? 'stop' : 'start';
    const seq = row.liveSeq ?? 0;
    update(row.id, { requesting: true });
    call(
      { url: `/admin/${kind}/${action}`, method: 'post', values: { id: row.id }, errorNotification: (err) => (err && isDisconnected(err) ? false : failWith(t('jobs.networkError'))(err)) },
      {
        onSuccess: ({ data }) => {
          const fresh = data[kind];
          // The answer only counts when no live event has already told a newer story.
          update(row.id, (now) =>
            (now.liveSeq ?? 0) === seq
              ? { status: fresh.status, state: fresh.state, requesting: false, ...(action === 'stop' ? { waiting: false, progressing: false } : {}) }
              : { requesting: false },
          );
          void invalidate({ resource: kind, invalidates: ['list'] });
        },
        onError: (err: HttpError) => {
          update(row.id, { requesting: false });
          // The job calls answer the message with its catalogue code; the screen's text is the locale's, so the code decides.
          if (isDisconnected(err)) forbidden();
          // Deleted meanwhile (in another tab, by someone else): the list is read again without it.
          if (err.statusCode === 404) void invalidate({ resource: kind, invalidates: ['list'] });
        },
      },
    );
  };

  const download = async () => {
    // A failed read is told by the notification provider (the query's errorNotification).
    const { data, error } = await result.refetch();
    if (error || !data) return;
    const list = data.data.list ?? [];
    if (!list.length) {
      void message.warning(t('jobs.noExport'));
      return;
    }
    // The download code loads with the first download, not with the list.
    const { downloadCsv } = await import('../../lib/download');
    await downloadCsv(
      list.map((r) => ({ number: r.number, name: r.name, status: 'active' })),
      ['number', 'name', 'status'],
      FILES[kind],
    );
  };

  const askDelete = (button: HTMLElement) => {
    // Keyboard focus goes to the next row's Delete once this row has left the list (lib/rowFocus).
    const place = rowPlace(button);
    modal.confirm({
      title: t('jobs.delete.title'),
      content: t(`${kind}.deleteContent`),
      okText: t('jobs.delete.ok'),
      cancelText: t('jobs.delete.cancel'),
      okButtonProps: { danger: true },
      onOk: () =>
        remove(
          { resource: kind, id: row.id, mutationMode: 'pessimistic', successNotification: doneWith(t('shared.deleted')), errorNotification: failWith(t('jobs.networkError')) },
          {
            onSuccess: () => focusAfterRowGone(place),
            onError: () => focusRowAction(place),
          },
        ),
    });
  };

  // 'Deleting...' from the confirm until the list no longer has the row.
  if (removal.isPending || removal.isSuccess) return <PendingText>{t('jobs.actions.deleting')}</PendingText>;
  const done = row.state === 'finished' && row.status === 'idle';
  const sending = row.status === 'sending';
  return (
    <Space wrap size={4}>
      <Button size="small" type={sending ? 'default' : 'primary'} danger={sending} loading={row.requesting} disabled={done} onClick={toggle}>
        {row.requesting ? t(sending ? 'jobs.actions.stopping' : 'jobs.actions.starting') : t(sending ? 'jobs.actions.stop' : 'jobs.actions.start')}
      </Button>
      <Button size="small" loading={result.isFetching} onClick={() => void download()}>
        {t('jobs.actions.download')}
      </Button>
      <Button size="small" danger onClick={(e) => askDelete(e.currentTarget)} data-row-action="delete">
        {t('jobs.actions.delete')}
      </Button>
      <Link to={`/${kind}/create?id=${row.id}`}>
        <Button size="small">{t('jobs.actions.edit')}</Button>
      </Link>
    </Space>
  );
}
