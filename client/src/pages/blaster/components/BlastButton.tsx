import { App, Button } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError, errorText } from '../../../lib/http';
import type { BlastRowFields } from './blastRow';

/** `code` of the server's 403 when the account has lost its connection. */
const DISCONNECTED = 2;
const DISCONNECTED_TEXT = 'Sambungan terputus, silahkan sambungkan ulang!';

interface Props {
  row: BlastRowFields;
  /** Applies a change to the row in the list (status, flags, counters the server answered). */
  update: (id: number, patch: Partial<BlastRowFields>) => void;
}

type BlastAnswer = { data: BlastRowFields; msg: string };

/**
 * Start Blast / Stop Blast of one WhatsApp account row: 'Starting...' / 'Stopping...' while the call
 * runs; a lost connection shows the 'Forbidden' dialog and leads to reconnecting the account;
 * stopping while a message is being sent asks first ('Sedang mengirim').
 */
export function BlastButton({ row, update }: Props) {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [stopping, setStopping] = useState(false);
  const sending = row.status === 'sending';

  const refused = (err: unknown, start: boolean) => {
    if (err instanceof ApiError && err.statusCode === 403 && (err.code === DISCONNECTED || err.message === DISCONNECTED_TEXT)) {
      modal.error({ title: 'Forbidden', content: DISCONNECTED_TEXT, onOk: () => navigate(`/whatsapp/create?r=${row.id}`) });
      return;
    }
    const text = errorText(err, 'Network error. Please try again.');
    modal.error({ title: 'Gagal', content: start ? `${text}! Silahkan coba lagi.` : text });
  };

  const start = async () => {
    update(row.id, { requesting: true });
    try {
      const res = await api<BlastAnswer>('/admin/whatsapp/start-blasting', {
        method: 'POST',
        body: { whatsappClientId: row.id, socketClientId: row.clientid, loop: true },
      });
      update(row.id, { status: res.data.status, requesting: false, progressing: true });
    } catch (err) {
      update(row.id, { requesting: false });
      refused(err, true);
    }
  };

  const stop = async () => {
    setStopping(true);
    update(row.id, { requesting: true });
    try {
      const res = await api<BlastAnswer>('/admin/whatsapp/stop-blasting', {
        method: 'POST',
        body: { whatsappClientId: row.id, socketClientId: row.clientid },
      });
      update(row.id, {
        status: res.data.status,
        count_success: res.data.count_success,
        count_fail: res.data.count_fail,
        income: res.data.income,
        requesting: false,
        progressing: false,
        waiting: false,
        attempting: false,
      });
    } catch (err) {
      update(row.id, { requesting: false });
      refused(err, false);
    } finally {
      setStopping(false);
    }
  };

  const askStop = () => {
    // While a message is on its way (not waiting between sends), confirm first.
    if (row.waiting && (row.waitTime ?? 0) > 0) return void stop();
    modal.confirm({
      title: 'Sedang mengirim',
      content: 'Blast berhenti setelah pesan yang sedang dikirim selesai.',
      okText: 'Stop Blast!',
      cancelText: 'Tunggu Aja',
      onOk: () => void stop(),
    });
  };

  if (row.suspended) return null;
  if (sending) {
    return (
      <Button size="small" danger onClick={askStop} loading={stopping} disabled={stopping}>
        {stopping ? 'Stopping...' : 'Stop Blast'}
      </Button>
    );
  }
  return (
    <Button size="small" type="primary" onClick={() => void start()} loading={row.requesting} disabled={row.requesting}>
      {row.requesting ? 'Starting...' : 'Start Blast'}
    </Button>
  );
}
