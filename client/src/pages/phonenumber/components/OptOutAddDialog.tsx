import { useInvalidate, useTranslate } from '@refinedev/core';
import { Alert, App, Form, Input, Modal, Typography } from 'antd';
import { useResourceForm } from '../../../components/ResourceForm';
import type { OptOutRow } from '../optout';
import { PHONE_RULES } from './phoneRules';

/**
 * 'Tambah Nomor Berhenti': one number field, checked like every phone-number form. The server normalises
 * it, records 'Ditambahkan manual' and makes its phone-number row nonactive; a number already on the list
 * is refused under the field.
 */
export function OptOutAddDialog({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: () => void }) {
  const t = useTranslate();
  const invalidate = useInvalidate();
  const { formProps, form, saving, error, mutation, clearSaveError } = useResourceForm<OptOutRow>({
    resource: 'optout',
    saved: (row) => t('phonenumber.optout.added', { number: (row as OptOutRow).number }),
    onSaved: () => {
      // The number's row in the phone-number list is nonactive now.
      void invalidate({ resource: 'phonenumber', invalidates: ['list', 'detail'] });
      onClose();
      onAdded();
    },
  });

  // Closing forgets a refusal; the field itself goes with the dialog (`preserve={false}`).
  const close = () => {
    clearSaveError();
    onClose();
  };

  // A refusal about the number (already on the list) shows under the field; anything else above the form.
  const onField = Object.keys(mutation.error?.errors ?? {}).length > 0;
  return (
    <Modal
      open={open}
      title={t('phonenumber.optout.addTitle')}
      onCancel={close}
      onOk={() => form.submit()}
      okText={saving ? t('shared.saving') : t('phonenumber.optout.addSave')}
      cancelText={t('shared.cancel')}
      okButtonProps={{ disabled: saving }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('phonenumber.optout.addHint')}</Typography.Paragraph>
      {error && !onField && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Form {...formProps} layout="vertical" preserve={false}>
        <Form.Item label={t('phonenumber.optout.fields.number')} name="number" rules={PHONE_RULES}>
          <Input placeholder="6281xxxxxxx" inputMode="tel" maxLength={32} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
