import { Card, Form, Input, Spin, Switch } from 'antd';
import { useSearchParams } from 'react-router';
import { FormError, SaveButton } from '../../components/FormParts';
import { PageTitle } from '../../components/PageTitle';
import { api } from '../../lib/http';
import { useFormLoad, useSaveForm } from '../../lib/useSaveForm';
import { useGoBack } from '../member/useGoBack';
import type { ProxyRow } from './list';

const NETWORK = 'Network error. Please try again.';

/** 'Edit Proxy' (/proxy/edit?id=): the value (password shown as ****, kept unless retyped) and the active toggle. */
export function ProxyEdit() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const goBack = useGoBack('/proxy');
  const [form] = Form.useForm<{ value: string; active: boolean }>();
  const { saving, error, setError, run } = useSaveForm();
  const loading = useFormLoad({
    key: id,
    required: true,
    load: (id) => api<{ proxy: ProxyRow }>(`/admin/proxy/${encodeURIComponent(id)}`, { fallback: 'Error fetching Proxy' }),
    apply: ({ proxy }) => form.setFieldsValue({ value: proxy.value, active: proxy.status === 'active' }),
    onError: setError,
    fallback: 'Error fetching Proxy',
  });

  const save = async (values: { value: string; active: boolean }) => {
    if (!id) return;
    await run(async () => {
      await api(`/admin/proxy/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: { id: Number(id), value: values.value, status: values.active ? 'active' : 'nonactive' },
        fallback: NETWORK,
      });
      goBack();
    });
  };

  return (
    <div>
      <PageTitle title="Edit Proxy" />
      <FormError error={error} />
      <Spin spinning={loading}>
        <Card style={{ maxWidth: 560 }}>
          <Form form={form} layout="vertical" onFinish={save} initialValues={{ active: true }}>
            <Form.Item label="Proxy" name="value" rules={[{ required: true, whitespace: true, message: 'Proxy wajib diisi.' }]}>
              <Input maxLength={500} />
            </Form.Item>
            <Form.Item label="Active" name="active" valuePropName="checked">
              <Switch />
            </Form.Item>
            <SaveButton saving={saving} disabled={loading} />
          </Form>
        </Card>
      </Spin>
    </div>
  );
}
