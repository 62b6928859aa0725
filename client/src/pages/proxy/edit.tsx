import { useTranslate } from '@refinedev/core';
import { Edit } from '@refinedev/antd';
import { Form, Input, Switch } from 'antd';
import { useSearchParams } from 'react-router';
import { FormError, HiddenSubmit } from '../../components/FormParts';
import { mapFormProps, useResourceForm } from '../../components/ResourceForm';
import { useGoBack } from '../member/useGoBack';
import type { ProxyRow } from './list';

interface Values {
  value: string;
  active: boolean;
}

/** What the spec's PUT /admin/proxy/{id} takes. */
interface ProxyWrite {
  id: number;
  value: string;
  status: 'active' | 'nonactive';
}

/** 'Edit Proxy' (/proxy/edit?id=): the value (password shown as ****, kept unless retyped) and the active toggle. */
export function ProxyEdit() {
  const t = useTranslate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const goBack = useGoBack('/proxy');
  const { formProps, loading, saveButtonProps, error } = useResourceForm<ProxyRow, ProxyWrite>({
    resource: 'proxy',
    edit: true,
    id,
    onSaved: goBack,
    loadFallback: t('proxy.errors.one'),
    select: (proxy) => ({ value: proxy.value, active: proxy.status === 'active' }),
  });

  const fieldProps = mapFormProps<Values, ProxyWrite>(formProps, (v) => ({ id: Number(id), value: v.value, status: v.active ? 'active' : 'nonactive' }));

  return (
    <Edit
      title={t('proxy.editTitle')}
      resource="proxy"
      recordItemId={id ?? undefined}
      breadcrumb={false}
      goBack={false}
      isLoading={loading}
      headerButtons={() => null}
      saveButtonProps={{ ...saveButtonProps, disabled: saveButtonProps.disabled || !id }}
      contentProps={{ style: { maxWidth: 560 } }}
    >
      <FormError error={error} />
      <Form {...fieldProps} layout="vertical">
        <Form.Item label={t('proxy.fields.value')} name="value" rules={[{ required: true, whitespace: true, message: t('proxy.required') }]}>
          <Input maxLength={500} />
        </Form.Item>
        <Form.Item label={t('proxy.fields.active')} name="active" valuePropName="checked">
          <Switch />
        </Form.Item>
        <HiddenSubmit disabled={saveButtonProps.disabled} />
      </Form>
    </Edit>
  );
}
