import { Button, Card, Form, Input, Spin, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { api, errorText } from '../../lib/http';
import { useGoBack } from '../member/useGoBack';
import type { ProxyRow } from './list';

const NETWORK = 'Network error. Please try again.';

/** 'Edit Proxy' (/proxy/edit?id=): the value (password shown as ****, kept unless retyped) and the active toggle. */
export function ProxyEdit() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const goBack = useGoBack('/proxy');
  const [form] = Form.useForm<{ value: string; active: boolean }>();
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!id) {
      setError('Error fetching Proxy');
      setLoading(false);
      return;
    }
    let live = true;
    api<{ proxy: ProxyRow }>(`/admin/proxy/${encodeURIComponent(id)}`, { fallback: 'Error fetching Proxy' })
      .then(({ proxy }) => live && form.setFieldsValue({ value: proxy.value, active: proxy.status === 'active' }))
      .catch((err: unknown) => live && setError(errorText(err, 'Error fetching Proxy')))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [id, form]);

  const save = async (values: { value: string; active: boolean }) => {
    if (!id) return;
    setSaving(true);
    setError(null);
    try {
      await api(`/admin/proxy/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: { id: Number(id), value: values.value, status: values.active ? 'active' : 'nonactive' },
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
      <PageTitle title="Edit Proxy" />
      {error && (
        <Typography.Paragraph type="danger" data-testid="form-error">
          Error: {error}
        </Typography.Paragraph>
      )}
      <Spin spinning={loading}>
        <Card style={{ maxWidth: 560 }}>
          <Form form={form} layout="vertical" onFinish={save} initialValues={{ active: true }}>
            <Form.Item label="Proxy" name="value" rules={[{ required: true, whitespace: true, message: 'Proxy wajib diisi.' }]}>
              <Input maxLength={500} />
            </Form.Item>
            <Form.Item label="Active" name="active" valuePropName="checked">
              <Switch />
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
