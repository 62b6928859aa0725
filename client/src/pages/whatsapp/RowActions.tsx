import { App, Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { api, errorText } from '../../lib/http';
import type { Role } from '../../../../common/roles';
import { canReconnect, type AccountRow } from './liveRow';
import { BlastButton } from '../blaster/components/BlastButton';

interface Props {
  row: AccountRow;
  role: Role;
  update: (id: number, patch: Partial<AccountRow>) => void;
}

/** Reset, Reconnect and (dev) the realtime monitor link; a suspended member sees the rule instead. */
export function RowActions({ row, role, update }: Props) {
  const { modal, message } = App.useApp();
  const navigate = useNavigate();

  const reset = () =>
    modal.confirm({
      title: 'Apakah Anda yakin ?',
      content: 'Jumlah berhasil, gagal dan pendapatan akun ini akan direset. Total pendapatan akun Anda tidak berubah.',
      okText: 'Ya, Reset.',
      cancelText: 'Batal',
      onOk: async () => {
        update(row.id, { resetting: true });
        try {
          const res = await api<{ data: AccountRow }>('/admin/whatsapp/reset', { method: 'POST', body: { id: row.id }, fallback: 'Network error. Please try again.' });
          update(row.id, { ...res.data, resetting: false });
        } catch (err) {
          update(row.id, { resetting: false });
          void message.error(errorText(err, 'Network error. Please try again.'));
        }
      },
    });

  const reconnect = () =>
    modal.confirm({
      title: 'Warning!',
      content: 'Akun ini akan disambungkan ulang.',
      okText: 'Ya, Reonnect.',
      cancelText: 'Batal',
      onOk: async () => {
        if (row.state !== 'conflict') {
          navigate(`/whatsapp/create?r=${row.id}`);
          return;
        }
        // A conflict reconnects the saved session in place; no new QR is needed.
        update(row.id, { state: 'reconnecting...' });
        try {
          await api('/admin/whatsapp/new-client', {
            method: 'POST',
            body: { deviceId: row.deviceId, userId: row.user_id, previousDeviceId: row.deviceId },
            fallback: 'Error creating client',
          });
        } catch (err) {
          update(row.id, { state: row.state });
          void message.error(errorText(err, 'Error creating client'));
        }
      },
    });

  if (row.suspended && role === 'member') {
    return (
      <div data-testid="suspended-rule">
        <Typography.Text type="danger" strong>
          Aturan #1 Jangan hapus pesan terkirim.
        </Typography.Text>
        <br />
        <Typography.Text type="secondary">Silahkan hubungi Admin/CS</Typography.Text>
      </div>
    );
  }

  return (
    <Space wrap size={4}>
      <BlastButton row={row} update={update} />
      <Button size="small" onClick={reset} loading={row.resetting} disabled={row.suspended}>
        Reset
      </Button>
      {canReconnect(row) && (
        <Button size="small" type="primary" ghost onClick={reconnect}>
          Reconnect
        </Button>
      )}
      {role === 'dev' && (
        <a href={`/monitor/realtime?id=${encodeURIComponent(row.clientid)}`} target="_blank" rel="noopener noreferrer">
          Realtime
        </a>
      )}
    </Space>
  );
}

/** Admin and dev lift a suspension while the account was suspended fewer than 3 times. */
export function ActivateButton({ row, update }: Omit<Props, 'role'>) {
  const { message } = App.useApp();
  if (!row.suspended || row.suspended_count >= 3) return null;
  const activate = async () => {
    update(row.id, { activating: true });
    try {
      const res = await api<{ data: AccountRow }>('/admin/whatsapp/activate', { method: 'POST', body: { id: row.id }, fallback: 'Network error. Please try again.' });
      update(row.id, { ...res.data, activating: false });
    } catch (err) {
      update(row.id, { activating: false });
      void message.error(errorText(err, 'Network error. Please try again.'));
    }
  };
  return (
    <Button size="small" danger onClick={() => void activate()} loading={row.activating}>
      Activated
    </Button>
  );
}
