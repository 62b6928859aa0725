import { useCustomMutation, useInvalidate, useTranslate } from '@refinedev/core';
import { App, Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import type { Role } from '../../../../../common/roles';
import { failWith } from '../../../lib/notify';
import { canReconnect, type AccountRow } from '../liveRow';
import { BlastButton } from './BlastButton';

interface Props {
  row: AccountRow;
  role: Role;
  update: (id: number, patch: Partial<AccountRow>) => void;
}

/** A call on one account whose answer is the account row (reset, activate). */
function useRowCall(update: Props['update']) {
  const t = useTranslate();
  const invalidate = useInvalidate();
  const { mutate } = useCustomMutation<{ data: AccountRow }>();
  return (row: AccountRow, url: string, flag: 'resetting' | 'activating') => {
    update(row.id, { [flag]: true });
    mutate(
      { url, method: 'post', values: { id: row.id }, errorNotification: failWith(t('whatsapp.networkError')) },
      {
        onSuccess: ({ data }) => {
          update(row.id, { ...data.data, [flag]: false });
          void invalidate({ resource: 'whatsapp', invalidates: ['list'] });
        },
        onError: () => update(row.id, { [flag]: false }),
      },
    );
  };
}

/** Reset, Reconnect and (dev) the realtime monitor link; a suspended member sees the rule instead. */
export function RowActions({ row, role, update }: Props) {
  const t = useTranslate();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const rowCall = useRowCall(update);
  const { mutate } = useCustomMutation();

  const reset = () =>
    modal.confirm({
      title: t('whatsapp.reset.title'),
      content: t('whatsapp.reset.content'),
      okText: t('whatsapp.reset.ok'),
      cancelText: t('whatsapp.reset.cancel'),
      onOk: () => rowCall(row, '/admin/whatsapp/reset', 'resetting'),
    });

  const reconnect = () =>
    modal.confirm({
      title: t('whatsapp.reconnect.title'),
      content: t('whatsapp.reconnect.content'),
      okText: t('whatsapp.reconnect.ok'),
      cancelText: t('whatsapp.reconnect.cancel'),
      onOk: () => {
        if (row.state !== 'conflict') {
          navigate(`/whatsapp/create?r=${row.id}`);
          return;
        }
        // A conflict reconnects the saved session in place; no new QR is needed.
        update(row.id, { state: 'reconnecting...' });
        mutate(
          {
            url: '/admin/whatsapp/new-client',
            method: 'post',
            values: { deviceId: row.deviceId, userId: row.user_id, previousDeviceId: row.deviceId },
            errorNotification: failWith(t('whatsapp.createClientError')),
          },
          { onError: () => update(row.id, { state: row.state }) },
        );
      },
    });

  if (row.suspended && role === 'member') {
    return (
      <div data-testid="suspended-rule">
        <Typography.Text type="danger" strong>
          {t('whatsapp.rule.title')}
        </Typography.Text>
        <br />
        <Typography.Text type="secondary">{t('whatsapp.rule.contact')}</Typography.Text>
      </div>
    );
  }

  return (
    <Space wrap size={4}>
      <BlastButton row={row} update={update} />
      <Button size="small" onClick={reset} loading={row.resetting} disabled={row.suspended}>
        {t('whatsapp.reset.button')}
      </Button>
      {canReconnect(row) && (
        <Button size="small" type="primary" ghost onClick={reconnect}>
          {t('whatsapp.reconnect.button')}
        </Button>
      )}
      {role === 'dev' && (
        <a href={`/monitor/realtime?id=${encodeURIComponent(row.clientid)}`} target="_blank" rel="noopener noreferrer">
          {t('whatsapp.realtime')}
        </a>
      )}
    </Space>
  );
}

/** Admin and dev lift a suspension while the account was suspended fewer than 3 times. */
export function ActivateButton({ row, update }: Omit<Props, 'role'>) {
  const t = useTranslate();
  const rowCall = useRowCall(update);
  if (!row.suspended || row.suspended_count >= 3) return null;
  return (
    <Button size="small" danger onClick={() => rowCall(row, '/admin/whatsapp/activate', 'activating')} loading={row.activating}>
      {t('whatsapp.activate')}
    </Button>
  );
}
