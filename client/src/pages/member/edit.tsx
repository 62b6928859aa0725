import { useCustom, useTranslate } from '@refinedev/core';
import { Edit } from '@refinedev/antd';
import { Form, Typography } from 'antd';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { atLeast, FormError, HiddenSubmit, IntegerItem } from '../../components/FormParts';
import { useResourceForm } from '../../components/ResourceForm';
import { failWith } from '../../lib/notify';
import { useGoBack } from './useGoBack';

interface MemberUser {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  blast_interval_min: number | null;
  blast_interval_max: number | null;
  blast_fee: number | null;
}

interface Values {
  blast_interval_min: number;
  blast_interval_max: number;
  blast_fee: number;
}

interface SettingsAnswer {
  setting: { interval_min: number; interval_max: number };
}

/** /member/edit?id=: the member's own blast interval and fee. */
export function MemberEdit() {
  const t = useTranslate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const goBack = useGoBack('/member');
  const { formProps, form, query, loading, saveButtonProps, error } = useResourceForm<MemberUser, Values>({
    resource: 'member',
    edit: true,
    id,
    onSaved: goBack,
    loadFallback: t('member.errors.one'),
    saveFallback: t('member.errors.update'),
  });
  const settings = useCustom<SettingsAnswer>({ url: '/admin/setting/get', method: 'get', errorNotification: failWith(t('member.errors.one')) });
  const user = query?.data?.data ?? null;
  const setting = settings.result.data?.setting;

  // Without an override of their own the member follows the global settings; those prefill the form.
  useEffect(() => {
    if (!user || settings.query.isLoading) return;
    form.setFieldsValue({
      blast_interval_min: user.blast_interval_min ?? setting?.interval_min ?? 1,
      blast_interval_max: user.blast_interval_max ?? setting?.interval_max ?? 2,
      blast_fee: user.blast_fee ?? 0,
    });
  }, [user, setting, settings.query.isLoading, form]);

  return (
    <Edit
      title={t('member.editTitle')}
      resource="member"
      recordItemId={id ?? undefined}
      breadcrumb={false}
      goBack={false}
      isLoading={loading}
      headerButtons={() => null}
      saveButtonProps={{ ...saveButtonProps, disabled: saveButtonProps.disabled || !user }}
      contentProps={{ style: { maxWidth: 560 } }}
    >
      <FormError error={error} />
      {!loading && !user && !error && <Typography.Paragraph>{t('member.notFound')}</Typography.Paragraph>}
      {user && (
        <>
          <Typography.Paragraph>
            <strong>
              {user.firstname} {user.lastname}
            </strong>{' '}
            ({user.email})
          </Typography.Paragraph>
          <Form {...formProps} layout="vertical">
            <Typography.Title level={5}>{t('member.interval')}</Typography.Title>
            <IntegerItem label={t('member.intervalMin')} name="blast_interval_min" what={t('member.intervalMin')} />
            <IntegerItem label={t('member.intervalMax')} name="blast_interval_max" what={t('member.intervalMax')} dependencies={['blast_interval_min']} rules={[atLeast('blast_interval_min')]} />
            <IntegerItem label={t('member.fee')} name="blast_fee" what={t('member.fee')} extra={t('member.feeHint')} />
            <HiddenSubmit disabled={saveButtonProps.disabled} />
          </Form>
        </>
      )}
    </Edit>
  );
}
