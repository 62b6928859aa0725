import { Alert, Card, Checkbox, Form, Input, Spin } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { FormError, SaveButton } from '../../components/FormParts';
import { PageTitle } from '../../components/PageTitle';
import { api } from '../../lib/http';
import { useFormLoad, useSaveForm } from '../../lib/useSaveForm';
import { useGoBack } from '../member/useGoBack';
import { PHONE_RULES } from './components/phoneRules';
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
  const { saving, error, setError, run } = useSaveForm();
  const [optOutReason, setOptOutReason] = useState<string | null>(null);
  const loading = useFormLoad({
    key: id,
    required: true,
    load: (id) => api<{ phoneNumber: PhoneNumberRow }>(`/admin/phonenumber/${encodeURIComponent(id)}`, { fallback: 'Error fetching Phone Number' }),
    apply: ({ phoneNumber: p }) => {
      form.setFieldsValue({ number: p.number, name: p.name, active: p.status === 'active' });
      setOptOutReason(p.opt_out_reason);
    },
    onError: setError,
    fallback: 'Error fetching Phone Number',
  });

  const save = async (values: Values) => {
    if (!id) return;
    await run(async () => {
      await api(`/admin/phonenumber/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: { id: Number(id), number: values.number, name: values.name, status: values.active ? 'active' : 'nonactive' },
        fallback: NETWORK,
      });
      goBack();
    });
  };

  return (
    <div>
      <PageTitle title="Edit Phone Number" />
      <FormError error={error} />
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
            <Form.Item label="Nomor Telepon" name="number" rules={PHONE_RULES}>
              <Input maxLength={32} inputMode="tel" />
            </Form.Item>
            <Form.Item label="Nama" name="name" rules={[{ required: true, whitespace: true, message: 'Nama wajib diisi.' }]}>
              <Input maxLength={200} />
            </Form.Item>
            <Form.Item name="active" valuePropName="checked">
              <Checkbox disabled={Boolean(optOutReason)}>Active</Checkbox>
            </Form.Item>
            <SaveButton saving={saving} disabled={loading} />
          </Form>
        </Card>
      </Spin>
    </div>
  );
}
