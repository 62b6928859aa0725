import { Alert, App, Button, Card, Checkbox, Form, InputNumber, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { ApiError, api, errorText } from '../../lib/http';
import { lastChars } from '../../lib/format';
import { INTERVAL_ORDER_MESSAGE, MAX_VALIDATOR_FILE_BYTES } from '../../../../common/jobs';
import { AccountSelect, type AccountChoice } from '../generator/AccountSelect';
import type { JobAccount, JobRow } from '../generator/jobRow';

type Errors = Partial<Record<'file' | 'interval_min' | 'interval_max' | 'whatsapp_id' | '_', string>>;

/** 'Tambah Akun Validator' at /validator/create: upload a .csv or .json; `?id=` edits (no new file). */
export function ValidatorCreate() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const [file, setFile] = useState<File | null>(null);
  const [fileName, setFileName] = useState('');
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
    api<{ validator: JobRow }>(`/admin/validator/${id}`, { fallback: 'Internal server error' })
      .then(({ validator: v }) => {
        setFileName(v.fileName ?? '');
        setMin(v.interval_min);
        setMax(v.interval_max);
        setAccount(v.whatsapp_id ?? undefined);
        setCurrent(v.Whatsapp);
        setSave(v.b_insert === 1);
      })
      .catch((err: unknown) => setErrors({ _: errorText(err) }))
      .finally(() => setLoading(false));
  }, [id]);

  const pick = (picked: File | null) => {
    setErrors({});
    if (picked && !/\.(csv|json)$/i.test(picked.name)) {
      setFile(null);
      setErrors({ file: 'File harus berformat .csv atau .json' });
      return;
    }
    if (picked && picked.size > MAX_VALIDATOR_FILE_BYTES) {
      setFile(null);
      setErrors({ file: 'Ukuran file paling besar 10 MB' });
      return;
    }
    setFile(picked);
  };

  const submit = async () => {
    if (min !== null && max !== null && min > max) {
      setErrors({ interval_min: INTERVAL_ORDER_MESSAGE });
      return;
    }
    setSaving(true);
    setErrors({});
    const form = new FormData();
    if (!id && file) form.append('file', file);
    form.append('whatsapp_id', String(account ?? ''));
    form.append('b_insert', save ? '1' : '0');
    form.append('interval_min', String(min ?? 1));
    form.append('interval_max', String(max ?? 2));
    const fallback = id ? 'Error update validator' : 'Error create validator';
    try {
      await api(id ? `/admin/validator/${id}` : '/admin/validator/create', { method: id ? 'PUT' : 'POST', body: form, fallback });
      void message.success(id ? 'Validator berhasil diperbarui' : 'Validator berhasil dibuat');
      navigate('/validator/list');
    } catch (err) {
      const fields = err instanceof ApiError ? err.errors : undefined;
      setErrors({ ...(fields ?? {}), _: errorText(err, fallback) });
    } finally {
      setSaving(false);
    }
  };

  const disabled = saving || account === 'new' || (!file && !id);
  const status = (key: keyof Errors) => (errors[key] ? { validateStatus: 'error' as const, help: errors[key] } : {});

  return (
    <div>
      <PageTitle title="Tambah Akun Validator" />
      <Card style={{ maxWidth: 640 }}>
        <Spin spinning={loading}>
          {errors._ && <Alert type="error" showIcon message={errors._} style={{ marginBottom: 16 }} />}
          <Form layout="vertical" onFinish={() => void submit()}>
            {id ? (
              <Form.Item label="Target File">
                <Typography.Text title={fileName}>{lastChars(fileName, 20)}</Typography.Text>
              </Form.Item>
            ) : (
              <Form.Item label="File (.csv / .json)" {...status('file')}>
                <input type="file" name="file" accept=".csv,.json" aria-label="File" onChange={(e) => pick(e.target.files?.[0] ?? null)} />
              </Form.Item>
            )}
            <Form.Item label="Interval Min" {...status('interval_min')}>
              <InputNumber name="interval_min" min={0} precision={0} value={min} onChange={setMin} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label="Interval Max" {...status('interval_max')}>
              <InputNumber name="interval_max" min={0} precision={0} value={max} onChange={setMax} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label="WhatsApp" {...status('whatsapp_id')}>
              <AccountSelect kind="validator" value={account} onChange={setAccount} current={current} />
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
