import { useTranslate } from '@refinedev/core';
import { Edit } from '@refinedev/antd';
import { Alert, Checkbox, Form, Input } from 'antd';
import { useSearchParams } from 'react-router';
import { FormError, HiddenSubmit } from '../../components/FormParts';
import { mapFormProps, useResourceForm } from '../../components/ResourceForm';
import { useGoBack } from '../member/useGoBack';
import { PHONE_RULES } from './components/phoneRules';
import type { PhoneNumberRow } from './live';

/** The fields of the screen: the spec's PUT body without its id. */
interface Values {
  number: string;
  name: string;
  status: 'active' | 'nonactive';
}

/** What the spec's PUT /admin/phonenumber/{id} takes. */
type PhoneNumberWrite = Values & { id: number };

/** 'Edit Phone Number' (/phonenumber/edit?id=): number, name and the active checkbox. */
export function PhoneNumberEdit() {
  const t = useTranslate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const goBack = useGoBack('/phonenumber');
  const { formProps, query, loading, saveButtonProps, error } = useResourceForm<PhoneNumberRow, PhoneNumberWrite>({
    resource: 'phonenumber',
    edit: true,
    id,
    onSaved: goBack,
    loadFallback: t('phonenumber.errors.one'),
  });
  const optOutReason = query?.data?.data.opt_out_reason ?? null;
  const fieldProps = mapFormProps<Values, PhoneNumberWrite>(formProps, (v) => ({ id: Number(id), number: v.number, name: v.name, status: v.status }));

  return (
    <Edit
      title={t('phonenumber.editTitle')}
      resource="phonenumber"
      recordItemId={id ?? undefined}
      breadcrumb={false}
      goBack={false}
      isLoading={loading}
      headerButtons={() => null}
      saveButtonProps={{ ...saveButtonProps, disabled: saveButtonProps.disabled || !id }}
      contentProps={{ style: { maxWidth: 560 } }}
    >
      <FormError error={error} />
      {optOutReason && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('phonenumber.optedOut', { reason: optOutReason })} />}
      <Form {...fieldProps} layout="vertical">
        <Form.Item label={t('phonenumber.fields.number')} name="number" rules={PHONE_RULES}>
          <Input maxLength={32} inputMode="tel" />
        </Form.Item>
        <Form.Item label={t('phonenumber.fields.nameInput')} name="name" rules={[{ required: true, whitespace: true, message: t('phonenumber.nameRequired') }]}>
          <Input maxLength={200} />
        </Form.Item>
        {/* The checkbox edits `status` itself, so the server's error for it lands under it. */}
        <Form.Item
          name="status"
          valuePropName="checked"
          getValueProps={(status: Values['status'] | undefined) => ({ checked: status !== 'nonactive' })}
          normalize={(checked: boolean) => (checked ? 'active' : 'nonactive')}
        >
          <Checkbox disabled={Boolean(optOutReason)}>{t('phonenumber.fields.active')}</Checkbox>
        </Form.Item>
        <HiddenSubmit disabled={saveButtonProps.disabled} />
      </Form>
    </Edit>
  );
}
