import { Button, Card, Form, InputNumber, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { api, errorText } from '../../lib/http';
import { useGoBack } from './useGoBack';

interface MemberUser {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  blast_interval_min: number | null;
  blast_interval_max: number | null;
  blast_fee: number | null;
}

interface Values {
  blast_interval_min: number;
  blast_interval_max: number;
  blast_fee: number;
}

interface SettingsAnswer {
  setting: { interval_min: number; interval_max: number };
}

export function MemberEdit() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const goBack = useGoBack('/member');
  const [form] = Form.useForm<Values>();
  const [user, setUser] = useState<MemberUser | null>(null);
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!id) {
      setLoading(false);
      return;
    }
    let live = true;
    setLoading(true);
    Promise.all([
      api<{ user: MemberUser }>(`/admin/users/${encodeURIComponent(id)}`, { fallback: 'Error fetching user' }),
      api<SettingsAnswer>('/admin/setting/get').catch(() => null),
    ])
      .then(([res, settings]) => {
        if (!live) return;
        setUser(res.user);
        // Without an override of their own the member follows the global settings; those prefill the form.
        form.setFieldsValue({
          blast_interval_min: res.user.blast_interval_min ?? settings?.setting.interval_min ?? 1,
          blast_interval_max: res.user.blast_interval_max ?? settings?.setting.interval_max ?? 2,
          blast_fee: res.user.blast_fee ?? 0,
        });
      })
      .catch((err: unknown) => live && setError(errorText(err, 'Error fetching user')))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [id, form]);

  const save = async (values: Values) => {
    if (!user) return;
    setSaving(true);
    setError(null);
    try {
      await api(`/admin/users/${user.id}`, { method: 'PUT', body: values, fallback: 'Error updating user' });
      goBack();
    } catch (err) {
      setError(errorText(err, 'Error updating user'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div>
      <PageTitle title="Edit Member" />
      {error && (
        <Typography.Paragraph type="danger" data-testid="form-error">
          Error: {error}
        </Typography.Paragraph>
      )}
      <Spin spinning={loading}>
        {!loading && !user && !error && <Typography.Paragraph>No User Found</Typography.Paragraph>}
        {user && (
          <Card style={{ maxWidth: 560 }}>
            <Typography.Paragraph>
              <strong>
                {user.firstname} {user.lastname}
              </strong>{' '}
              ({user.email})
            </Typography.Paragraph>
            <Form form={form} layout="vertical" onFinish={save}>
              <Typography.Title level={5}>Interval Whatsapp Blast</Typography.Title>
              <Form.Item
                label="Interval Min (s)"
                name="blast_interval_min"
                rules={[{ required: true, type: 'integer', min: 0, message: 'Interval Min (s) wajib diisi dengan angka.' }]}
              >
                <InputNumber min={0} precision={0} style={{ width: '100%' }} />
              </Form.Item>
              <Form.Item
                label="Interval Max (s)"
                name="blast_interval_max"
                dependencies={['blast_interval_min']}
                rules={[
                  { required: true, type: 'integer', min: 0, message: 'Interval Max (s) wajib diisi dengan angka.' },
                  ({ getFieldValue }) => ({
                    validator: (_, value: number | null) =>
                      value === null || value === undefined || getFieldValue('blast_interval_min') <= value
                        ? Promise.resolve()
                        : Promise.reject(new Error('Interval minimal harus lebih kecil dari interval maksimal')),
                  }),
                ]}
              >
                <InputNumber min={0} precision={0} style={{ width: '100%' }} />
              </Form.Item>
              <Form.Item
                label="Fee Whatsapp Blast (Rp.)"
                name="blast_fee"
                extra="0 = mengikuti fee level member."
                rules={[{ required: true, type: 'integer', min: 0, message: 'Fee Whatsapp Blast (Rp.) wajib diisi dengan angka.' }]}
              >
                <InputNumber min={0} precision={0} style={{ width: '100%' }} />
              </Form.Item>
              <Button type="primary" htmlType="submit" disabled={saving}>
                {saving ? 'Menyimpan...' : 'Simpan'}
              </Button>
            </Form>
          </Card>
        )}
      </Spin>
    </div>
  );
}
