import { Alert, Button, Card, Checkbox, Form, Input, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { normalizePhone } from '../../../../common/phone';
import { PageTitle } from '../../components/PageTitle';
import { api, errorText } from '../../lib/http';
import { useGoBack } from '../member/useGoBack';
import type { PhoneNumberRow } from './live';

interface Values {
  number: string;
  name: string;
  active: boolean;
}

const NETWORK = 'Network error. Please try again.';

/** 'Edit Phone Number' (/phonenumber/edit?id=): number, name and the active checkbox. */
export function PhoneNumberEdit() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const goBack = useGoBack('/phonenumber');
  const [form] = Form.useForm<Values>();
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [optOutReason, setOptOutReason] = useState<string | null>(null);

  useEffect(() => {
    if (!id) {
      setError('Error fetching Phone Number');
      setLoading(false);
      return;
    }
    let live = true;
    api<{ phoneNumber: PhoneNumberRow }>(`/admin/phonenumber/${encodeURIComponent(id)}`, { fallback: 'Error fetching Phone Number' })
      .then(({ phoneNumber: p }) => {
        if (!live) return;
        form.setFieldsValue({ number: p.number, name: p.name, active: p.status === 'active' });
        setOptOutReason(p.opt_out_reason);
      })
      .catch((err: unknown) => live && setError(errorText(err, 'Error fetching Phone Number')))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [id, form]);

  const save = async (values: Values) => {
    if (!id) return;
    setSaving(true);
    setError(null);
    try {
      await api(`/admin/phonenumber/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: { id: Number(id), number: values.number, name: values.name, status: values.active ? 'active' : 'nonactive' },
        fallback: NETWORK,
      });
      goBack();
    } catch (err) {
      setError(errorText(err, NETWORK));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div>
      <PageTitle title="Edit Phone Number" />
      {error && (
        <Typography.Paragraph type="danger" data-testid="form-error">
          Error: {error}
        </Typography.Paragraph>
      )}
      {optOutReason && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16, maxWidth: 560 }}
          message={`Nomor ini berhenti berlangganan (${optOutReason}) dan tidak bisa diaktifkan lagi.`}
        />
      )}
      <Spin spinning={loading}>
        <Card style={{ maxWidth: 560 }}>
          <Form form={form} layout="vertical" onFinish={save} initialValues={{ active: true }}>
            <Form.Item
              label="Nomor Telepon"
              name="number"
              rules={[
                { required: true, whitespace: true, message: 'Nomor telepon wajib diisi.' },
                {
                  validator: (_r, v: string | undefined) => {
                    if (!v || !v.trim()) return Promise.resolve();
                    const r = normalizePhone(v);
                    return r.ok ? Promise.resolve() : Promise.reject(new Error(r.message));
                  },
                },
              ]}
            >
              <Input maxLength={32} inputMode="tel" />
            </Form.Item>
            <Form.Item label="Nama" name="name" rules={[{ required: true, whitespace: true, message: 'Nama wajib diisi.' }]}>
              <Input maxLength={200} />
            </Form.Item>
            <Form.Item name="active" valuePropName="checked">
              <Checkbox disabled={Boolean(optOutReason)}>Active</Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" disabled={saving || loading}>
              {saving ? 'Menyimpan...' : 'Simpan'}
            </Button>
          </Form>
        </Card>
      </Spin>
    </div>
  );
}
