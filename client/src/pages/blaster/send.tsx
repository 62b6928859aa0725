import { App, Button, Card, Form, Input, Select, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { PageTitle } from '../../components/PageTitle';
import { api, errorText } from '../../lib/http';

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

/** The gateway's failure codes in the console's words. */
const FAIL_REASONS: Record<string, string> = {
  not_registered: 'Tidak terdaftar di WhatsApp',
  invalid_number: 'Nomor tidak valid',
  timeout: 'Waktu habis',
  rate_limited: 'Dibatasi oleh WhatsApp',
  failed: 'Gagal terkirim',
  not_connected: 'Sender terputus',
  unknown_device: 'Perangkat sender tidak dikenal',
};
/** Failed numbers listed in the dialog; the rest are counted. */
const FAILED_SHOWN = 20;

/** The spec's success text, and when some receivers failed, how many got it and which failed why. */
function SentReport({ res }: { res: SendAnswer }) {
  const failed = res.failed ?? [];
  const skipped = res.skippedCount ? ` ${res.skippedCount} nomor dilewatkan (${res.optedOutCount} berhenti berlangganan).` : '';
  const more = failed.length - FAILED_SHOWN;
  return (
    <div>
      <p style={{ margin: 0 }}>{`Pesan blaster berhasil dikirim ke target.${skipped}`}</p>
      {failed.length > 0 && (
        <>
          <p style={{ margin: '8px 0 4px' }}>
            {`Terkirim ke ${res.sent.toLocaleString('id-ID')} dari ${(res.sent + failed.length).toLocaleString('id-ID')} nomor; ${failed.length.toLocaleString('id-ID')} nomor gagal:`}
          </p>
          <ul aria-label="Nomor gagal" style={{ margin: 0, paddingLeft: 20, maxHeight: 240, overflow: 'auto' }}>
            {failed.slice(0, FAILED_SHOWN).map((f) => (
              <li key={f.number}>
                <span style={{ whiteSpace: 'nowrap' }}>{f.number}</span>: {FAIL_REASONS[f.error] ?? f.error}
              </li>
            ))}
          </ul>
          {more > 0 && <p style={{ margin: '4px 0 0' }}>{`… dan ${more.toLocaleString('id-ID')} nomor gagal lainnya.`}</p>}
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

/** Active numbers matching a search (the server answers at most 1,000; the search narrows them). */
async function activeNumbers(search: string): Promise<Receiver[]> {
  const res = await api<{ list: Receiver[] }>(`/admin/phonenumber/list${search ? `?search=${encodeURIComponent(search)}` : ''}`, {
    fallback: 'Error fetching Phone Number list',
  });
  return res.list.filter((r) => r.status === 'active');
}

/** 'Blaster Whatsapp Message' (/blaster, admin and dev): one message from one account to chosen numbers. */
export function BlasterSend() {
  const { modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [senders, setSenders] = useState<Sender[] | null>(null);
  const [receivers, setReceivers] = useState<Receiver[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [sending, setSending] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const searchTimer = useRef<number | undefined>(undefined);

  useEffect(() => {
    const t = window.setTimeout(() => {
      api<{ list: Sender[] }>('/admin/whatsapp/list', { fallback: 'Error fetching Whatsapp list' })
        .then((res) => setSenders(res.list))
        .catch((err: unknown) => {
          setSenders([]);
          setLoadError(errorText(err));
        });
      activeNumbers('')
        .then(setReceivers)
        .catch((err: unknown) => {
          setReceivers([]);
          setLoadError(errorText(err));
        });
    }, LOAD_DELAY_MS);
    return () => window.clearTimeout(t);
  }, []);

  const search = (text: string) => {
    window.clearTimeout(searchTimer.current);
    searchTimer.current = window.setTimeout(() => {
      setSearching(true);
      activeNumbers(text.trim())
        .then(setReceivers)
        .catch((err: unknown) => setLoadError(errorText(err)))
        .finally(() => setSearching(false));
    }, SEARCH_DELAY_MS);
  };

  const submit = async (values: Values) => {
    const sender = senders?.find((s) => s.id === values.sender);
    if (!sender || !values.message?.trim() || !values.receivers?.length) return;
    setSending(true);
    try {
      // The sender's connection is checked first; only a connected account sends.
      const { state } = await api<{ state: string }>(`/admin/whatsapp/client-state/${encodeURIComponent(sender.deviceId)}`, {
        fallback: 'Error sending message',
      });
      if (state !== 'CONNECTED') {
        modal.error({ title: 'Gagal!', content: `${sender.phonenumber ?? sender.clientid} is ${state}` });
        return;
      }
      const targets = values.receivers.includes(ALL) ? ALL : values.receivers.join(',');
      const res = await api<SendAnswer>('/admin/whatsapp/send-message/1', {
        method: 'POST',
        body: { senders: sender.phonenumber ?? sender.clientid, targets, message: values.message },
        fallback: 'Error sending message',
      });
      // All delivered: the spec's dialog. Some failed: the same dialog as a warning, with the report under it.
      const open = res.failed?.length ? modal.warning : modal.success;
      open({ title: 'Terkirim!', content: <SentReport res={res} />, width: res.failed?.length ? 520 : undefined });
    } catch (err) {
      modal.error({ title: 'Gagal!', content: errorText(err, 'Error sending message') });
    } finally {
      setSending(false);
    }
  };

  const receiverOptions = [
    { value: ALL, label: 'All' },
    ...(receivers ?? []).map((r) => ({ value: r.number, label: r.name ? `${r.number} - ${r.name}` : r.number })),
  ];

  return (
    <div>
      <PageTitle title="Blaster Whatsapp Message" />
      <Card>
        {loadError && <div style={{ color: '#cf1322', marginBottom: 12 }}>{loadError}</div>}
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false} style={{ maxWidth: 720 }}>
          <Form.Item label="Choose Sender" name="sender" rules={[{ required: true, message: 'Sender wajib dipilih' }]}>
            <Select
              aria-label="Choose Sender"
              placeholder="Pilih sender"
              loading={senders === null}
              showSearch
              optionFilterProp="label"
              options={(senders ?? []).map((s) => ({ value: s.id, label: `${s.clientid} - ${s.phonenumber ?? '-'}` }))}
            />
          </Form.Item>
          <Form.Item label="Message" name="message" rules={[{ required: true, whitespace: true, message: 'Pesan wajib diisi' }]}>
            <Input.TextArea aria-label="Message" rows={6} placeholder="Tulis pesan… {name} dan {phoneNumber} diganti per penerima" />
          </Form.Item>
          <Form.Item label="Choose Receivers" name="receivers" rules={[{ required: true, message: 'Receiver wajib dipilih' }]}>
            <Select
              aria-label="Choose Receivers"
              mode="multiple"
              placeholder="Pilih penerima"
              loading={receivers === null || searching}
              showSearch
              filterOption={false}
              onSearch={search}
              notFoundContent={receivers === null || searching ? <Spin size="small" /> : 'Kosong'}
              options={receiverOptions}
              virtual
              maxTagCount="responsive"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={sending} disabled={sending}>
            {sending ? 'Mengirim Pesan...' : 'Kirim'}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
