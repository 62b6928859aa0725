import { Alert, Button, Card, Checkbox, Form, InputNumber, Spin } from 'antd';
import type { ReactNode } from 'react';
import { PageTitle } from '../../components/PageTitle';
import { AccountSelect } from './AccountSelect';
import type { JobForm } from './useJobForm';

interface Props<F extends string> {
  title: string;
  form: JobForm<F>;
  disabled: boolean;
  onSubmit: () => Promise<void>;
  /** The area's own fields, above the shared ones. */
  children: ReactNode;
}

/**
 * The card of the generator and validator create/edit screens: the area's own fields, then
 * Interval Min, Interval Max, WhatsApp (with 'Daftar Baru'), 'Simpan ke dalam daftar' and Simpan.
 */
export function JobFormCard<F extends string>({ title, form, disabled, onSubmit, children }: Props<F>) {
  const { status } = form;
  return (
    <div>
      <PageTitle title={title} />
      <Card style={{ maxWidth: 640 }}>
        <Spin spinning={form.loading}>
          {form.errors._ && <Alert type="error" showIcon message={form.errors._} style={{ marginBottom: 16 }} />}
          <Form layout="vertical" onFinish={() => void onSubmit()}>
            {children}
            <Form.Item label="Interval Min" {...status('interval_min')}>
              <InputNumber name="interval_min" min={0} precision={0} value={form.min} onChange={form.setMin} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label="Interval Max" {...status('interval_max')}>
              <InputNumber name="interval_max" min={0} precision={0} value={form.max} onChange={form.setMax} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label="WhatsApp" {...status('whatsapp_id')}>
              <AccountSelect kind={form.kind} value={form.account} onChange={form.setAccount} current={form.current} />
            </Form.Item>
            <Form.Item>
              <Checkbox checked={form.save} onChange={(e) => form.setSave(e.target.checked)}>
                Simpan ke dalam daftar
              </Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" disabled={disabled} loading={form.saving}>
              {form.saving ? 'Menyimpan...' : 'Simpan'}
            </Button>
          </Form>
        </Spin>
      </Card>
    </div>
  );
}
