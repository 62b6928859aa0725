import { Button, Card, Form, Input, InputNumber, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { api, errorText } from '../../lib/http';
import { useGoBack } from '../member/useGoBack';
import type { LevelRow } from './list';

type Values = Pick<LevelRow, 'name' | 'blast_fee' | 'requirement_blast'>;

/** /level/create and /level/edit?id= share this form. */
export function LevelForm() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const goBack = useGoBack('/level');
  const [form] = Form.useForm<Values>();
  const [loading, setLoading] = useState(Boolean(id));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!id) return;
    let live = true;
    setLoading(true);
    api<{ level: LevelRow }>(`/admin/level/${encodeURIComponent(id)}`, { fallback: 'Error fetching Level' })
      .then((res) => live && form.setFieldsValue(res.level))
      .catch((err: unknown) => live && setError(errorText(err, 'Error fetching Level')))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [id, form]);

  const save = async (values: Values) => {
    setSaving(true);
    setError(null);
    try {
      await api(id ? `/admin/level/${encodeURIComponent(id)}` : '/admin/level/create', {
        method: id ? 'PUT' : 'POST',
        body: values,
        fallback: 'Network error. Please try again.',
      });
      goBack();
    } catch (err) {
      setError(errorText(err, 'Network error. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div>
      <PageTitle title={id ? 'Edit Level' : 'Tambah Level'} />
      {error && (
        <Typography.Paragraph type="danger" data-testid="form-error">
          Error: {error}
        </Typography.Paragraph>
      )}
      <Spin spinning={loading}>
        <Card style={{ maxWidth: 560 }}>
          <Form form={form} layout="vertical" onFinish={save}>
            <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: 'Name wajib diisi.' }]}>
              <Input maxLength={100} />
            </Form.Item>
            <Form.Item
              label="Harga per Blast (Rp.)"
              name="blast_fee"
              rules={[{ required: true, type: 'integer', min: 0, message: 'Harga per Blast wajib diisi dengan angka.' }]}
            >
              <InputNumber min={0} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item
              label="Syarat Minimal Blast"
              name="requirement_blast"
              rules={[{ required: true, type: 'integer', min: 0, message: 'Syarat Minimal Blast wajib diisi dengan angka.' }]}
            >
              <InputNumber min={0} precision={0} style={{ width: '100%' }} />
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
