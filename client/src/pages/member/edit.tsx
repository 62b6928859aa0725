import { Card, Form, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { atLeast, FormError, IntegerItem, SaveButton } from '../../components/FormParts';
import { PageTitle } from '../../components/PageTitle';
import { api } from '../../lib/http';
import { useFormLoad, useSaveForm } from '../../lib/useSaveForm';
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
  const { saving, error, setError, run } = useSaveForm('Error updating user');
  const loading = useFormLoad({
    key: id,
    load: (id) =>
      Promise.all([
        api<{ user: MemberUser }>(`/admin/users/${encodeURIComponent(id)}`, { fallback: 'Error fetching user' }),
        api<SettingsAnswer>('/admin/setting/get').catch(() => null),
      ]),
    apply: ([res, settings]) => {
      setUser(res.user);
      // Without an override of their own the member follows the global settings; those prefill the form.
      form.setFieldsValue({
        blast_interval_min: res.user.blast_interval_min ?? settings?.setting.interval_min ?? 1,
        blast_interval_max: res.user.blast_interval_max ?? settings?.setting.interval_max ?? 2,
        blast_fee: res.user.blast_fee ?? 0,
      });
    },
    onError: setError,
    fallback: 'Error fetching user',
  });

  const save = async (values: Values) => {
    if (!user) return;
    await run(async () => {
      await api(`/admin/users/${user.id}`, { method: 'PUT', body: values, fallback: 'Error updating user' });
      goBack();
    });
  };

  return (
    <div>
      <PageTitle title="Edit Member" />
      <FormError error={error} />
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
              <IntegerItem label="Interval Min (s)" name="blast_interval_min" what="Interval Min (s)" />
              <IntegerItem label="Interval Max (s)" name="blast_interval_max" what="Interval Max (s)" dependencies={['blast_interval_min']} rules={[atLeast('blast_interval_min')]} />
              <IntegerItem label="Fee Whatsapp Blast (Rp.)" name="blast_fee" what="Fee Whatsapp Blast (Rp.)" extra="0 = mengikuti fee level member." />
              <SaveButton saving={saving} />
            </Form>
          </Card>
        )}
      </Spin>
    </div>
  );
}
