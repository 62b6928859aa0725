import { useCustomMutation, useTranslate, type HttpError } from '@refinedev/core';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { doneWith } from '../../../lib/notify';
import type { FormItemProps } from 'antd';

export interface CloudLinkValues {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
}

type Rule = NonNullable<FormItemProps['rules']>[number];
const FIELDS = ['phoneNumberId', 'wabaId', 'accessToken'] as const;

/**
 * 'Login dengan Cloud API': a business phone number of the WhatsApp Business Cloud API becomes an account.
 * The server checks the number and the token with Meta; its refusals show under the field they name.
 */
export function CloudLinkForm({ onSaved }: { onSaved: () => void }) {
  const t = useTranslate();
  const [form] = Form.useForm<CloudLinkValues>();
  const { mutate, mutation } = useCustomMutation<{ msg?: string }, HttpError, CloudLinkValues>();
  const saving = mutation.isPending;
  const fieldErrors = mutation.error?.errors ?? {};
  // A refusal naming one of our fields shows under it; any other (409, network) above the button.
  const general = mutation.error && !FIELDS.some((f) => f in fieldErrors) ? mutation.error.message || t('whatsapp.create.cloud.error') : null;

  const label = (field: (typeof FIELDS)[number]) => t(`whatsapp.create.cloud.${field}`);
  const required = (field: (typeof FIELDS)[number]): Rule => ({ required: true, whitespace: true, message: t('whatsapp.create.cloud.required', { field: label(field) }) });
  const digits = (field: (typeof FIELDS)[number]): Rule => ({ pattern: /^\s*\d+\s*$/, message: t('whatsapp.create.cloud.digits', { field: label(field) }) });

  const save = (values: CloudLinkValues) =>
    mutate(
      {
        url: '/admin/whatsapp/cloud-link',
        method: 'post',
        values: { phoneNumberId: values.phoneNumberId.trim(), wabaId: values.wabaId.trim(), accessToken: values.accessToken.trim() },
        successNotification: doneWith(t('whatsapp.create.saved')),
        // The form shows a refusal itself: under the field it names, or above the button.
        errorNotification: false,
      },
      {
        onSuccess: onSaved,
        onError: (err) => {
          const errors = err.errors ?? {};
          const texts = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
          form.setFields(FIELDS.filter((f) => texts(errors[f]).length > 0).map((f) => ({ name: f, errors: texts(errors[f]) })));
        },
      },
    );

  return (
    <Form<CloudLinkValues> form={form} layout="vertical" onFinish={save} requiredMark={false} disabled={saving} data-testid="cloud-link-form">
      <Typography.Paragraph type="secondary">{t('whatsapp.create.cloud.help')}</Typography.Paragraph>
      <Form.Item label={label('phoneNumberId')} name="phoneNumberId" rules={[required('phoneNumberId'), digits('phoneNumberId')]}>
        <Input inputMode="numeric" autoComplete="off" placeholder="106540352242922" />
      </Form.Item>
      <Form.Item label={label('wabaId')} name="wabaId" rules={[required('wabaId'), digits('wabaId')]}>
        <Input inputMode="numeric" autoComplete="off" placeholder="102290129340398" />
      </Form.Item>
      <Form.Item label={label('accessToken')} name="accessToken" rules={[required('accessToken')]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      {general && <Alert type="error" showIcon message={general} style={{ marginBottom: 16 }} data-testid="cloud-link-error" />}
      <Button type="primary" htmlType="submit" block loading={saving}>
        {saving ? t('whatsapp.create.cloud.saving') : t('whatsapp.create.cloud.save')}
      </Button>
    </Form>
  );
}
