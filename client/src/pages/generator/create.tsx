import { Alert, App, Button, Card, Checkbox, Form, Input, InputNumber, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { ApiError, api, errorText } from '../../lib/http';
import { INTERVAL_ORDER_MESSAGE, RANGE_ORDER_MESSAGE } from '../../../../common/jobs';
import { phoneOrNull } from '../../../../common/phone';
import { AccountSelect, type AccountChoice } from './AccountSelect';
import type { JobAccount, JobRow } from './jobRow';

type Errors = Partial<Record<'start_number' | 'end_number' | 'interval_min' | 'interval_max' | 'whatsapp_id' | '_', string>>;

/** 'Tambah Akun Generator' at /generator/create; `?id=` edits a generator (its range is then fixed). */
export function GeneratorCreate() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [min, setMin] = useState<number | null>(1);
  const [max, setMax] = useState<number | null>(2);
  const [account, setAccount] = useState<AccountChoice>(undefined);
  const [current, setCurrent] = useState<JobAccount | null>(null);
  const [save, setSave] = useState(false);
  const [saving, setSaving] = useState(false);
  const [loading, setLoading] = useState(Boolean(id));
  const [errors, setErrors] = useState<Errors>({});

  useEffect(() => {
    if (!id) return;
    api<{ generator: JobRow }>(`/admin/generator/${id}`, { fallback: 'Internal server error' })
      .then(({ generator: g }) => {
        setStart(g.start_number ?? '');
        setEnd(g.end_number ?? '');
        setMin(g.interval_min);
        setMax(g.interval_max);
        setAccount(g.whatsapp_id ?? undefined);
        setCurrent(g.Whatsapp);
        setSave(g.b_insert === 1);
      })
      .catch((err: unknown) => setErrors({ _: errorText(err) }))
      .finally(() => setLoading(false));
  }, [id]);

  const submit = async () => {
    const a = phoneOrNull(start);
    const b = phoneOrNull(end);
    if (a && b && BigInt(a) > BigInt(b)) {
      setErrors({ start_number: RANGE_ORDER_MESSAGE });
      return;
    }
    if (min !== null && max !== null && min > max) {
      setErrors({ interval_min: INTERVAL_ORDER_MESSAGE });
      return;
    }
    setSaving(true);
    setErrors({});
    const body = { start_number: start.trim(), end_number: end.trim(), whatsapp_id: account, b_insert: save ? 1 : 0, interval_min: min ?? 1, interval_max: max ?? 2 };
    try {
      await api(id ? `/admin/generator/${id}` : '/admin/generator/create', { method: id ? 'PUT' : 'POST', body, fallback: 'Network error. Please try again.' });
      void message.success(id ? 'Generator berhasil diperbarui' : 'Generator berhasil dibuat');
      navigate('/generator/list');
    } catch (err) {
      const fields = err instanceof ApiError ? err.errors : undefined;
      setErrors({ ...(fields ?? {}), _: errorText(err, 'Network error. Please try again.') });
    } finally {
      setSaving(false);
    }
  };

  const disabled = saving || account === 'new' || !start.trim() || !end.trim();
  const status = (key: keyof Errors) => (errors[key] ? { validateStatus: 'error' as const, help: errors[key] } : {});

  return (
    <div>
      <PageTitle title="Tambah Akun Generator" />
      <Card style={{ maxWidth: 640 }}>
        <Spin spinning={loading}>
          {errors._ && <Alert type="error" showIcon message={errors._} style={{ marginBottom: 16 }} />}
          <Form layout="vertical" onFinish={() => void submit()}>
            <Form.Item label="Target Nomor Awal" {...status('start_number')}>
              <Input name="start_number" value={start} disabled={Boolean(id)} placeholder="6281xxxxxxx" inputMode="numeric" onChange={(e) => setStart(e.target.value)} />
            </Form.Item>
            <Form.Item label="Target Nomor Akhir" {...status('end_number')}>
              <Input name="end_number" value={end} disabled={Boolean(id)} placeholder="6281xxxxxxx" inputMode="numeric" onChange={(e) => setEnd(e.target.value)} />
            </Form.Item>
            <Form.Item label="Interval Min" {...status('interval_min')}>
              <InputNumber name="interval_min" min={0} precision={0} value={min} onChange={setMin} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label="Interval Max" {...status('interval_max')}>
              <InputNumber name="interval_max" min={0} precision={0} value={max} onChange={setMax} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label="WhatsApp" {...status('whatsapp_id')}>
              <AccountSelect kind="generator" value={account} onChange={setAccount} current={current} />
            </Form.Item>
            <Form.Item>
              <Checkbox checked={save} onChange={(e) => setSave(e.target.checked)}>
                Simpan ke dalam daftar
              </Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" disabled={disabled} loading={saving}>
              {saving ? 'Menyimpan...' : 'Simpan'}
            </Button>
          </Form>
        </Spin>
      </Card>
    </div>
  );
}
