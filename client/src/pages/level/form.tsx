import { Card, Form, Input, Spin } from 'antd';
import { useSearchParams } from 'react-router';
import { FormError, IntegerItem, SaveButton } from '../../components/FormParts';
import { PageTitle } from '../../components/PageTitle';
import { api } from '../../lib/http';
import { useFormLoad, useSaveForm } from '../../lib/useSaveForm';
import { useGoBack } from '../member/useGoBack';
import type { LevelRow } from './list';

type Values = Pick<LevelRow, 'name' | 'blast_fee' | 'requirement_blast'>;

/** /level/create and /level/edit?id= share this form. */
export function LevelForm() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const goBack = useGoBack('/level');
  const [form] = Form.useForm<Values>();
  const { saving, error, setError, run } = useSaveForm();
  const loading = useFormLoad({
    key: id,
    load: (id) => api<{ level: LevelRow }>(`/admin/level/${encodeURIComponent(id)}`, { fallback: 'Error fetching Level' }),
    apply: (res) => form.setFieldsValue(res.level),
    onError: setError,
    fallback: 'Error fetching Level',
  });

  const save = (values: Values) =>
    run(async () => {
      await api(id ? `/admin/level/${encodeURIComponent(id)}` : '/admin/level/create', {
        method: id ? 'PUT' : 'POST',
        body: values,
        fallback: 'Network error. Please try again.',
      });
      goBack();
    });

  return (
    <div>
      <PageTitle title={id ? 'Edit Level' : 'Tambah Level'} />
      <FormError error={error} />
      <Spin spinning={loading}>
        <Card style={{ maxWidth: 560 }}>
          <Form form={form} layout="vertical" onFinish={save}>
            <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: 'Name wajib diisi.' }]}>
              <Input maxLength={100} />
            </Form.Item>
            <IntegerItem label="Harga per Blast (Rp.)" name="blast_fee" what="Harga per Blast" />
            <IntegerItem label="Syarat Minimal Blast" name="requirement_blast" what="Syarat Minimal Blast" />
            <SaveButton saving={saving} />
          </Form>
        </Card>
      </Spin>
    </div>
  );
}
