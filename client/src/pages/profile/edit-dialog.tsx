import { useCustom, useTranslate } from '@refinedev/core';
import { Alert, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { passwordToggle } from '../../components/PasswordToggle';
import { mapFormProps, useResourceForm } from '../../components/ResourceForm';
import { failWith } from '../../lib/notify';
import type { ProfileUser } from './index';

interface Values {
  firstname: string;
  lastname: string;
  account_bank?: string;
  account_number: string;
  account_name: string;
  password?: string;
}

export interface SavedProfile {
  user: ProfileUser;
  token?: string;
}

const splitList = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The profile editor: names, bank from settings.bank_names, account and an optional new password.
 * Saved through Refine's useForm on the `profile` resource; server field errors land under their fields.
 */
export function ProfileEditDialog({ user, open, onClose, onSaved }: { user: ProfileUser; open: boolean; onClose: () => void; onSaved: (saved: SavedProfile) => void }) {
  const t = useTranslate();
  const { formProps, form, saving, error } = useResourceForm<ProfileUser, Record<string, string>>({
    resource: 'profile',
    edit: true,
    id: user.id,
    loadRecord: false,
    onSaved: (saved) => onSaved(saved as unknown as SavedProfile),
    saveFallback: t('profile.errors.update'),
  });
  const settings = useCustom<{ setting: { bank_names: string } }>({ url: '/admin/setting/get', method: 'get', queryOptions: { enabled: open }, errorNotification: failWith(t('shared.network')) });
  const banks = settings.query.isLoading ? null : splitList(settings.result.data?.setting?.bank_names ?? '');

  const banksKey = banks?.join(',') ?? null;
  useEffect(() => {
    if (!open || banksKey === null) return;
    form.setFieldsValue({
      firstname: user.firstname,
      lastname: user.lastname,
      // Without a bank chosen yet, the first listed bank is used.
      account_bank: user.account_bank || splitList(banksKey)[0],
      account_number: user.account_number ?? '',
      account_name: user.account_name ?? '',
      password: '',
    });
  }, [open, banksKey, user, form]);

  const fieldProps = mapFormProps<Values, Record<string, string>>(formProps, (values) => {
    const body: Record<string, string> = {
      firstname: values.firstname,
      lastname: values.lastname ?? '',
      account_number: values.account_number ?? '',
      account_name: values.account_name ?? '',
    };
    const bank = values.account_bank || banks?.[0];
    if (bank) body.account_bank = bank;
    // The password is sent only when the user typed a new one.
    if (values.password) body.password = values.password;
    return body;
  });

  return (
    <Modal
      open={open}
      title={t('profile.editTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={saving ? t('shared.saving') : t('shared.save')}
      cancelText={t('shared.cancel')}
      okButtonProps={{ disabled: saving }}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Form<Values> {...fieldProps} layout="vertical">
        <Form.Item label={t('profile.fields.firstname')} name="firstname" rules={[{ required: true, whitespace: true, message: t('profile.firstnameRequired') }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item label={t('profile.fields.lastname')} name="lastname">
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item label={t('profile.fields.bank')} name="account_bank">
          {banks && banks.length === 0 ? (
            <Typography.Text type="danger">{t('profile.noBanks')}</Typography.Text>
          ) : (
            <Select loading={banks === null} options={[...new Set([...(banks ?? []), ...(user.account_bank ? [user.account_bank] : [])])].map((b) => ({ value: b, label: b }))} />
          )}
        </Form.Item>
        <Form.Item label={t('profile.fields.number')} name="account_number" rules={[{ pattern: /^[\d\s.-]*$/, message: t('profile.numberDigits') }]}>
          <Input inputMode="numeric" maxLength={40} />
        </Form.Item>
        <Form.Item label={t('profile.fields.name')} name="account_name">
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item label={t('profile.fields.password')} name="password" rules={[{ min: 8, message: t('profile.passwordShort') }]}>
          <Input.Password placeholder={t('profile.passwordPlaceholder')} autoComplete="new-password" iconRender={passwordToggle} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
