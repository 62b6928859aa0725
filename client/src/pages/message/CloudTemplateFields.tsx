import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Form, Input, Select, Space, Typography } from 'antd';
import type { FormItemProps } from 'antd';
import { MAX_WA_PARAMS, WA_LANGUAGE, WA_NAME, WA_PARAMS, type WaParam } from './model';

type Rule = NonNullable<FormItemProps['rules']>[number];

/**
 * The Cloud API section of the template form: the approved template's name and language, and what fills
 * its body parameters in order. Shown always; only accounts linked through the Cloud API use it.
 */
export function CloudTemplateFields() {
  const t = useTranslate();
  // Meta addresses an approved template by name and language together.
  const languageWithName: Rule = ({ getFieldValue }) => ({
    validator: (_, value: string | undefined) =>
      ((getFieldValue('waTemplateName') as string | undefined) ?? '').trim() && !(value ?? '').trim()
        ? Promise.reject(new Error(t('message.cloud.languageRequired')))
        : Promise.resolve(),
  });
  const options = WA_PARAMS.map((value) => ({ value, label: t(value === '{name}' ? 'message.cloud.paramName' : 'message.cloud.paramPhone') }));

  return (
    <section style={{ marginTop: 24 }} aria-labelledby="wa-template-title">
      <Typography.Title level={5} id="wa-template-title">
        {t('message.cloud.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('message.cloud.help')}</Typography.Paragraph>
      <Form.Item
        label={t('message.cloud.name')}
        name="waTemplateName"
        rules={[
          { pattern: WA_NAME, message: t('message.cloud.nameInvalid') },
          { max: 512, message: t('message.cloud.nameTooLong') },
        ]}
      >
        <Input placeholder="promo_november" autoComplete="off" />
      </Form.Item>
      <Form.Item
        label={t('message.cloud.language')}
        name="waTemplateLanguage"
        dependencies={['waTemplateName']}
        rules={[{ pattern: WA_LANGUAGE, message: t('message.cloud.languageInvalid') }, languageWithName]}
      >
        <Input placeholder="id" autoComplete="off" style={{ maxWidth: 160 }} />
      </Form.Item>
      <Typography.Text strong>{t('message.cloud.params')}</Typography.Text>
      <Form.List name="waTemplateParams">
        {(fields, { add, remove }, { errors }) => (
          <div data-testid="wa-template-params">
            {fields.map((field, index) => (
              <Space key={field.key} align="baseline" style={{ display: 'flex', marginTop: 8 }}>
                <Form.Item label={t('message.cloud.param', { n: index + 1 })} name={field.name} style={{ marginBottom: 0 }}>
                  <Select<WaParam> options={options} style={{ width: 240 }} />
                </Form.Item>
                <Button icon={<DeleteOutlined aria-hidden />} onClick={() => remove(field.name)} aria-label={t('message.cloud.removeParam', { n: index + 1 })} />
              </Space>
            ))}
            <Button icon={<PlusOutlined aria-hidden />} style={{ marginTop: 8 }} onClick={() => add('{name}')} disabled={fields.length >= MAX_WA_PARAMS}>
              {t('message.cloud.addParam')}
            </Button>
            <Form.ErrorList errors={errors} />
          </div>
        )}
      </Form.List>
    </section>
  );
}
