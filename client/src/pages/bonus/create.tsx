import { App, Button, Card, Form, Input, InputNumber, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { api, errorText } from '../../lib/http';
import { getSessionUser } from '../../lib/session';
import { useGoBack } from '../member/useGoBack';

interface Person {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
}

interface Values {
  userId: number;
  nominal: number;
  reason: string;
}

const label = (u: Person) => `${u.firstname} ${u.lastname}`.trim() + ` (${u.email})`;

/** /bonus/create, optionally ?id={memberId} to preselect the member. */
export function BonusCreate() {
  const { modal } = App.useApp();
  const [params] = useSearchParams();
  const preselected = Number(params.get('id')) || null;
  const goBack = useGoBack('/bonus');
  const [form] = Form.useForm<Values>();
  const [people, setPeople] = useState<Person[]>([]);
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api<{ users: Person[] }>('/admin/users/members', { fallback: 'Error fetching user' })
      .then(async (res) => {
        let list = res.users ?? [];
        // A preselected user outside the members list (a developer) is fetched on its own.
        if (preselected && !list.some((u) => u.id === preselected)) {
          const one = await api<{ user: Person }>(`/admin/users/${preselected}`).catch(() => null);
          if (one) list = [one.user, ...list];
        }
        if (!live) return;
        setPeople(list);
        if (preselected && list.some((u) => u.id === preselected)) form.setFieldValue('userId', preselected);
      })
      .catch((err: unknown) => live && setError(errorText(err, 'Error fetching user')))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [preselected, form]);

  const save = async (values: Values) => {
    setSaving(true);
    setError(null);
    try {
      await api('/admin/bonus/create', {
        method: 'POST',
        body: { ...values, adminId: getSessionUser()?.id },
        fallback: 'Network error. Please try again.',
      });
      modal.success({ title: 'Berhasil', content: 'Bonus berhasil dikirim.', onOk: goBack, onCancel: goBack });
    } catch (err) {
      setError(errorText(err, 'Network error. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div>
      <PageTitle title="Kirim Bonus" />
      {error && (
        <Typography.Paragraph type="danger" data-testid="form-error">
          Error: {error}
        </Typography.Paragraph>
      )}
      <Card style={{ maxWidth: 560 }}>
        <Form form={form} layout="vertical" onFinish={save}>
          <Form.Item label="Member" name="userId" rules={[{ required: true, message: 'Member wajib dipilih.' }]}>
            <Select
              showSearch
              loading={loading}
              placeholder="Pilih member"
              optionFilterProp="label"
              options={people.map((u) => ({ value: u.id, label: label(u) }))}
              data-testid="bonus-member"
            />
          </Form.Item>
          <Form.Item label="Nominal" name="nominal" rules={[{ required: true, type: 'integer', min: 1, message: 'Nominal wajib diisi dengan angka.' }]}>
            <InputNumber min={1} precision={0} style={{ width: '100%' }} addonBefore="Rp" />
          </Form.Item>
          <Form.Item label="Keterangan" name="reason" rules={[{ required: true, whitespace: true, message: 'Keterangan wajib diisi.' }]}>
            <Input.TextArea rows={3} maxLength={1000} />
          </Form.Item>
          <Button type="primary" htmlType="submit" disabled={saving}>
            {saving ? 'Mengirim...' : 'Kirim'}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
