import { App, Button, Card, Form, Input, InputNumber, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { PageTitle } from '../../components/PageTitle';
import { api, ApiError, errorText } from '../../lib/http';

export interface Settings {
  interval_min: number;
  interval_max: number;
  price: number;
  bank_names: string;
  colors: string;
  referral_percent: number;
  info: string;
  recipient_cooldown: number;
}

const number = (label: string, extra?: Record<string, unknown>) => [
  { required: true, type: 'integer' as const, min: 0, message: `${label} wajib diisi dengan angka.`, ...extra },
];

/** /settings ('Form Pengaturan'): the global settings, every field required. */
export function SettingsForm() {
  const { message } = App.useApp();
  const [form] = Form.useForm<Settings>();
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api<{ setting: Settings }>('/admin/setting/get', { fallback: 'Error fetching Settings' })
      .then((res) => live && form.setFieldsValue(res.setting))
      .catch((err: unknown) => live && setError(errorText(err, 'Error fetching Settings')))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [form]);

  const save = async (values: Settings) => {
    setSaving(true);
    setError(null);
    try {
      const res = await api<{ setting: Settings; msg?: string }>('/admin/setting/update', {
        method: 'PUT',
        body: values,
        fallback: 'Network error. Please try again.',
      });
      form.setFieldsValue(res.setting);
      void message.success(res.msg ?? 'Pengaturan berhasil disimpan.');
    } catch (err) {
      if (err instanceof ApiError && err.errors) {
        form.setFields(Object.entries(err.errors).map(([name, msg]) => ({ name: name as keyof Settings, errors: [msg] })));
      }
      setError(errorText(err, 'Network error. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div>
      <PageTitle title="Form Pengaturan" />
      {error && (
        <Typography.Paragraph type="danger" data-testid="form-error">
          Error: {error}
        </Typography.Paragraph>
      )}
      <Spin spinning={loading}>
        <Card style={{ maxWidth: 640 }}>
          <Form form={form} layout="vertical" onFinish={save}>
            <Form.Item label="Interval Min (s)" name="interval_min" rules={number('Interval Min')}>
              <InputNumber min={0} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item
              label="Interval Max (s)"
              name="interval_max"
              dependencies={['interval_min']}
              rules={[
                ...number('Interval Max'),
                ({ getFieldValue }) => ({
                  validator: (_, v: number | null) =>
                    v === null || v === undefined || getFieldValue('interval_min') <= v
                      ? Promise.resolve()
                      : Promise.reject(new Error('Interval minimal harus lebih kecil dari interval maksimal')),
                }),
              ]}
            >
              <InputNumber min={0} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label="Harga per Blast (Rp.)" name="price" rules={number('Harga per Blast')} extra="Dipakai bila member tidak punya fee sendiri dan belum masuk level mana pun.">
              <InputNumber min={0} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label="Daftar Bank" name="bank_names" rules={[{ required: true, whitespace: true, message: 'Daftar Bank wajib diisi.' }]} extra="Pisahkan dengan koma dan spasi, mis. BCA, MANDIRI, BRI">
              <Input />
            </Form.Item>
            <Form.Item label="Warna Level" name="colors" rules={[{ required: true, whitespace: true, message: 'Warna Level wajib diisi.' }]} extra="Warna hex dipisahkan koma dan spasi, mis. #2C2C2C, #3E3A32">
              <Input />
            </Form.Item>
            <Form.Item label="Persentase Referal (%)" name="referral_percent" rules={number('Persentase Referal', { max: 100 })} extra="0 - 100">
              <InputNumber min={0} max={100} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label="Jeda Penerima (jam)" name="recipient_cooldown" rules={number('Jeda Penerima', { max: 8760 })} extra="Nomor yang sudah dikirimi pesan tidak dikirimi lagi sebelum jeda ini lewat.">
              <InputNumber min={0} max={8760} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label="Info" name="info" rules={[{ required: true, whitespace: true, message: 'Info wajib diisi.' }]} extra="Ditampilkan sebagai banner di dashboard member.">
              <Input.TextArea rows={4} maxLength={5000} />
            </Form.Item>
            <Button type="primary" htmlType="submit" disabled={saving}>
              {saving ? 'Menyimpan...' : 'Simpan'}
            </Button>
          </Form>
        </Card>
      </Spin>
    </div>
  );
}
