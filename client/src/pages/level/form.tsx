import { useTranslate } from '@refinedev/core';
import { Card, Form, Input, Spin } from 'antd';
import { useSearchParams } from 'react-router';
import { FormError, IntegerItem, SaveButton } from '../../components/FormParts';
import { PageTitle } from '../../components/PageTitle';
import { useResourceForm } from '../../components/ResourceForm';
import { useGoBack } from '../member/useGoBack';
import type { LevelRow } from './list';

/** /level/create and /level/edit?id= share this form. */
export function LevelForm() {
  const t = useTranslate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const goBack = useGoBack('/level');
  const { formProps, loading, saving, error } = useResourceForm<LevelRow>({
    resource: 'level',
    edit: Boolean(id),
    id,
    onSaved: goBack,
    loadFallback: t('level.errors.one'),
  });

  return (
    <div>
      <PageTitle title={id ? t('level.editTitle') : t('level.createTitle')} />
      <FormError error={error} />
      <Spin spinning={loading}>
        <Card style={{ maxWidth: 560 }}>
          <Form {...formProps} layout="vertical">
            <Form.Item label={t('level.fields.name')} name="name" rules={[{ required: true, whitespace: true, message: t('level.nameRequired') }]}>
              <Input maxLength={100} />
            </Form.Item>
            <IntegerItem label={t('level.fields.fee')} name="blast_fee" what={t('level.what.fee')} />
            <IntegerItem label={t('level.fields.requirement')} name="requirement_blast" what={t('level.what.requirement')} />
            <SaveButton saving={saving} disabled={loading} />
          </Form>
        </Card>
      </Spin>
    </div>
  );
}
