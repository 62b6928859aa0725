import { App, Button, Space } from 'antd';
import { Link, useNavigate } from 'react-router';
import { ApiError, api, errorText } from '../../lib/http';
import { downloadCsv } from '../../lib/download';
import { accountCanRunJobs, DISCONNECTED_MESSAGE } from '../../../../common/jobs';
import type { JobKind, JobRow } from './jobRow';

const FILES: Record<JobKind, string> = {
  generator: 'phone_numbers_generated.csv',
  validator: 'phone_numbers_validated.csv',
};

interface Props {
  kind: JobKind;
  row: JobRow;
  update: (id: number, patch: Partial<JobRow> | ((row: JobRow) => Partial<JobRow>)) => void;
  /** The row was deleted on the server. */
  removed: (id: number) => void;
}

/** Start/Stop, Download, Delete and Edit of one generator or validator row. */
export function JobActions({ kind, row, update, removed }: Props) {
  const { modal, message } = App.useApp();
  const navigate = useNavigate();

  // 'Forbidden', then to the account's reconnect screen (spec 5).
  const forbidden = () =>
    modal.error({
      title: 'Forbidden',
      content: DISCONNECTED_MESSAGE,
      onOk: () => navigate(row.whatsapp_id ? `/whatsapp/create?r=${row.whatsapp_id}` : `/whatsapp/create?type=${kind}`),
    });

  const toggle = async () => {
    if (!accountCanRunJobs(row.Whatsapp?.state)) {
      forbidden();
      return;
    }
    const action = row.status === 'sending' ? 'stop' : 'start';
    const seq = row.liveSeq ?? 0;
    update(row.id, { requesting: true });
    try {
      const res = await api<Record<JobKind, JobRow>>(`/admin/${kind}/${action}`, { method: 'POST', body: { id: row.id }, fallback: 'Network error. Please try again.' });
      const fresh = res[kind];
      // The answer only counts when no live event has already told a newer story.
      update(row.id, (now) =>
        (now.liveSeq ?? 0) === seq
          ? { status: fresh.status, state: fresh.state, requesting: false, ...(action === 'stop' ? { waiting: false, progressing: false } : {}) }
          : { requesting: false },
      );
    } catch (err) {
      update(row.id, { requesting: false });
      if (err instanceof ApiError && err.statusCode === 403 && err.message === DISCONNECTED_MESSAGE) forbidden();
      else void message.error(errorText(err, 'Network error. Please try again.'));
    }
  };

  const download = async () => {
    try {
      const res = await api<{ list: Array<{ number: string; name: string }> }>(`/admin/${kind}/download-result/${row.id}`, { fallback: 'Internal server error' });
      if (!res.list.length) {
        void message.warning('No phone numbers to export.');
        return;
      }
      downloadCsv(
        res.list.map((r) => ({ number: r.number, name: r.name, status: 'active' })),
        ['number', 'name', 'status'],
        FILES[kind],
      );
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  const remove = () =>
    modal.confirm({
      title: 'Apakah Anda yakin ?',
      content: kind === 'generator' ? 'Generator ini dan hasilnya akan dihapus.' : 'Validator ini, filenya dan hasilnya akan dihapus.',
      okText: 'Ya, Hapus.',
      cancelText: 'Batal',
      okButtonProps: { danger: true },
      onOk: async () => {
        update(row.id, { deleting: true });
        try {
          await api(`/admin/${kind}/${row.id}`, { method: 'DELETE', fallback: 'Network error. Please try again.' });
          removed(row.id);
        } catch (err) {
          update(row.id, { deleting: false });
          void message.error(errorText(err, 'Network error. Please try again.'));
        }
      },
    });

  if (row.deleting) return <span>Deleting...</span>;
  const done = row.state === 'finished' && row.status === 'idle';
  return (
    <Space wrap size={4}>
      <Button
        size="small"
        type={row.status === 'sending' ? 'default' : 'primary'}
        danger={row.status === 'sending'}
        loading={row.requesting}
        disabled={done}
        onClick={() => void toggle()}
      >
        {row.requesting ? (row.status === 'sending' ? 'Stopping...' : 'Starting...') : row.status === 'sending' ? 'Stop' : 'Start'}
      </Button>
      <Button size="small" onClick={() => void download()}>
        Download
      </Button>
      <Button size="small" danger onClick={remove}>
        Delete
      </Button>
      <Link to={`/${kind}/create?id=${row.id}`}>
        <Button size="small">Edit</Button>
      </Link>
    </Space>
  );
}
