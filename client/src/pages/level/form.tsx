import { Create, Edit } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Form, Input } from 'antd';
import { useSearchParams } from 'react-router';
import { FormError, HiddenSubmit, IntegerItem } from '../../components/FormParts';
import { useResourceForm } from '../../components/ResourceForm';
import { useGoBack } from '../member/useGoBack';
import type { LevelRow } from './list';

/** /level/create and /level/edit?id= share this form: Refine's `<Create>` / `<Edit>` with the spec's words. */
export function LevelForm() {
  const t = useTranslate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const goBack = useGoBack('/level');
  const { formProps, saveButtonProps, loading, error } = useResourceForm<LevelRow>({
    resource: 'level',
    edit: Boolean(id),
    id,
    onSaved: goBack,
    loadFallback: t('level.errors.one'),
  });
  const View = id ? Edit : Create;
  return (
    <View
      title={id ? t('level.editTitle') : t('level.createTitle')}
      resource="level"
      recordItemId={id ?? undefined}
      breadcrumb={false}
      goBack={false}
      isLoading={loading}
      headerButtons={() => null}
      saveButtonProps={saveButtonProps}
      contentProps={{ style: { maxWidth: 560 } }}
    >
      <FormError error={error} />
      <Form {...formProps} layout="vertical">
        <Form.Item label={t('level.fields.name')} name="name" rules={[{ required: true, whitespace: true, message: t('level.nameRequired') }]}>
          <Input maxLength={100} />
        </Form.Item>
        <IntegerItem label={t('level.fields.fee')} name="blast_fee" what={t('level.what.fee')} />
        <IntegerItem label={t('level.fields.requirement')} name="requirement_blast" what={t('level.what.requirement')} />
        <HiddenSubmit disabled={saveButtonProps.disabled} />
      </Form>
    </View>
  );
}
