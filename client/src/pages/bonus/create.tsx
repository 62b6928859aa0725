import { useCustom, useTranslate } from '@refinedev/core';
import { Create } from '@refinedev/antd';
import { App, Form, Input } from 'antd';
import { FormSelect } from '../../components/FormSelect';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { FormError, HiddenSubmit, notANumberRule, TypedNumberInput } from '../../components/FormParts';
import { useResourceForm } from '../../components/ResourceForm';
import { failWith } from '../../lib/notify';
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
  adminId?: number;
}

const label = (u: Person) => `${u.firstname} ${u.lastname}`.trim() + ` (${u.email})`;

/**
 * /bonus/create, optionally ?id={memberId} to preselect the member. Only members are offered (the
 * server refuses a bonus to anyone else), so an ?id of another role preselects nobody.
 */
export function BonusCreate() {
  const t = useTranslate();
  const { modal } = App.useApp();
  const [params] = useSearchParams();
  const preselected = Number(params.get('id')) || null;
  const goBack = useGoBack('/bonus');
  const { formProps, form, saveButtonProps, error: saveError } = useResourceForm<Person, Values>({
    resource: 'bonus',
    saveLabel: t('bonus.submit'),
    savingLabel: t('shared.sending'),
    // The spec's 'Berhasil / Bonus berhasil dikirim.' dialog is this save's message.
    saved: false,
    onSaved: () => modal.success({ title: t('shared.success'), content: t('bonus.sent'), onOk: goBack, onCancel: goBack }),
  });
  const members = useCustom<{ users: Person[] }>({ url: '/admin/users/members', method: 'get', meta: { fallback: t('bonus.errors.members') }, errorNotification: failWith(t('bonus.errors.members')) });
  const people = members.result.data?.users ?? [];

  useEffect(() => {
    if (preselected && people.some((u) => u.id === preselected)) form.setFieldValue('userId', preselected);
  }, [preselected, people, form]);

  const { onFinish } = formProps;
  return (
    <Create title={t('bonus.createTitle')} resource="bonus" breadcrumb={false} goBack={false} saveButtonProps={saveButtonProps} contentProps={{ style: { maxWidth: 560 } }}>
      <FormError error={saveError} />
      <Form {...formProps} layout="vertical" onFinish={(values: Values) => onFinish?.({ ...values, adminId: getSessionUser()?.id })}>
        <Form.Item label={t('bonus.fields.member')} name="userId" rules={[{ required: true, message: t('bonus.memberRequired') }]}>
          <FormSelect
            showSearch
            loading={members.query.isLoading}
            placeholder={t('bonus.pickMember')}
            optionFilterProp="label"
            options={people.map((u) => ({ value: u.id, label: label(u) }))}
            data-testid="bonus-member"
          />
        </Form.Item>
        <Form.Item
          label={t('bonus.fields.nominal')}
          name="nominal"
          validateFirst
          // A negative or zero amount is refused with its reason, not silently turned into 1.
          rules={[
            notANumberRule(t('bonus.fields.nominal')),
            { required: true, type: 'integer', message: t('bonus.nominalRequired') },
            { type: 'integer', min: 1, message: t('bonus.nominalPositive') },
          ]}
        >
          <TypedNumberInput style={{ width: '100%' }} addonBefore="Rp" />
        </Form.Item>
        <Form.Item label={t('bonus.fields.reason')} name="reason" rules={[{ required: true, whitespace: true, message: t('bonus.reasonRequired') }]}>
          <Input.TextArea rows={3} maxLength={1000} />
        </Form.Item>
        <HiddenSubmit disabled={saveButtonProps.disabled} />
      </Form>
    </Create>
  );
}
