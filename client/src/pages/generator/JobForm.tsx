import { useTranslate } from '@refinedev/core';
import { Create, Edit } from '@refinedev/antd';
import { Alert, Checkbox, Form } from 'antd';
import type { FormItemProps } from 'antd';
import type { ReactNode } from 'react';
import { AccountSelect, isCloudAccount, useJobAccounts } from './AccountSelect';
import type { JobForm } from './useJobForm';
import { HiddenSubmit, notANumberRule, TypedNumberInput } from '../../components/FormParts';
import { specSaveButtonProps } from '../../components/ResourceForm';

interface Props {
  title: string;
  form: JobForm;
  disabled: boolean;
  onSubmit: () => void;
  /** The area's own fields, above the shared ones. */
  children: ReactNode;
}

/**
 * The card of the generator and validator create/edit screens: the area's own fields, then
 * Interval Min, Interval Max, WhatsApp (with 'Daftar Baru'), 'Simpan ke dalam daftar' and Simpan.
 * Every field has a rule, so an error under it (ours or the server's) clears once it is corrected.
 */
export function JobFormCard({ title, form, disabled, onSubmit, children }: Props) {
  const t = useTranslate();
  const { accounts } = useJobAccounts();
  // The Cloud API offers no number check: such an account cannot run a generator or validator.
  const cloud = isCloudAccount(accounts, form.account);
  const whole = { type: 'integer' as const, min: 0, message: t('jobs.form.intervalRequired') };
  // Interval Min above Interval Max: the spec's message under Interval Min.
  const minAtMostMax: NonNullable<FormItemProps['rules']>[number] = ({ getFieldValue }) => ({
    validator: (_, value: number | null) => {
      const max = getFieldValue('interval_max') as number | null;
      return value === null || value === undefined || max === null || max === undefined || value <= max
        ? Promise.resolve()
        : Promise.reject(new Error(t('jobs.form.intervalOrder')));
    },
  });
  const View = form.id ? Edit : Create;
  const saveButtonProps = specSaveButtonProps(form.saveButtonProps, {
    saving: form.saving,
    disabled: disabled || cloud || form.loading,
    label: t('jobs.form.submit'),
    busyLabel: t('jobs.form.saving'),
  });
  return (
    <View
      title={title}
      resource={form.kind}
      recordItemId={form.id ?? undefined}
      breadcrumb={false}
      goBack={false}
      isLoading={form.loading}
      headerButtons={() => null}
      saveButtonProps={saveButtonProps}
      contentProps={{ style: { maxWidth: 640 } }}
    >
      {form.error && <Alert type="error" showIcon message={form.error} style={{ marginBottom: 16 }} />}
      <Form {...form.formProps} layout="vertical" onFinish={onSubmit}>
        {children}
        <Form.Item label={t('jobs.form.intervalMin')} name="interval_min" validateFirst dependencies={['interval_max']} rules={[notANumberRule(t('jobs.form.intervalMin')), whole, minAtMostMax]}>
          <TypedNumberInput name="interval_min" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label={t('jobs.form.intervalMax')} name="interval_max" validateFirst rules={[notANumberRule(t('jobs.form.intervalMax')), whole]}>
          <TypedNumberInput name="interval_max" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label={t('jobs.form.whatsapp')} name="whatsapp_id" rules={[{ required: false }]}>
          <AccountSelect kind={form.kind} current={form.current} />
        </Form.Item>
        {cloud && <Alert type="warning" showIcon message={t('jobs.form.cloudAccount')} style={{ marginBottom: 16 }} data-testid="cloud-account-alert" />}
        <Form.Item name="b_insert" valuePropName="checked">
          <Checkbox>{t('jobs.form.saveToList')}</Checkbox>
        </Form.Item>
        <HiddenSubmit disabled={saveButtonProps.disabled} />
      </Form>
    </View>
  );
}
