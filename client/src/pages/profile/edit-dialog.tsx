import { Alert, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { api, ApiError, errorText } from '../../lib/http';
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

/** The profile editor: names, bank from settings.bank_names, account and an optional new password. */
export function ProfileEditDialog({ user, open, onClose, onSaved }: { user: ProfileUser; open: boolean; onClose: () => void; onSaved: (saved: SavedProfile) => void }) {
  const [form] = Form.useForm<Values>();
  const [banks, setBanks] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    api<{ setting: { bank_names: string } }>('/admin/setting/get')
      .then((res) => live && setBanks(splitList(res.setting.bank_names ?? '')))
      .catch(() => live && setBanks([]));
    return () => {
      live = false;
    };
  }, [open]);

  useEffect(() => {
    if (!open || banks === null) return;
    form.setFieldsValue({
      firstname: user.firstname,
      lastname: user.lastname,
      // Without a bank chosen yet, the first listed bank is used.
      account_bank: user.account_bank || banks[0],
      account_number: user.account_number ?? '',
      account_name: user.account_name ?? '',
      password: '',
    });
  }, [open, banks, user, form]);

  const save = async (values: Values) => {
    setSaving(true);
    setError(null);
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
    try {
      const res = await api<SavedProfile>(`/admin/users/${user.id}`, { method: 'PUT', body, fallback: 'Error updating user' });
      onSaved(res);
    } catch (err) {
      if (err instanceof ApiError && err.errors) {
        form.setFields(Object.entries(err.errors).map(([name, msg]) => ({ name: name as keyof Values, errors: [msg] })));
      }
      setError(errorText(err, 'Error updating user'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title="Edit Profile"
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={saving ? 'Menyimpan...' : 'Simpan'}
      cancelText="Batal"
      okButtonProps={{ disabled: saving }}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" onFinish={save} preserve={false}>
        <Form.Item label="First Name" name="firstname" rules={[{ required: true, whitespace: true, message: 'First name is required.' }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item label="Last Name" name="lastname">
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item label="Bank" name="account_bank">
          {banks && banks.length === 0 ? (
            <Typography.Text type="danger">Daftar Bank Tidak Tersedia</Typography.Text>
          ) : (
            <Select
              loading={banks === null}
              options={[...new Set([...(banks ?? []), ...(user.account_bank ? [user.account_bank] : [])])].map((b) => ({ value: b, label: b }))}
            />
          )}
        </Form.Item>
        <Form.Item label="Nomor Rekening" name="account_number" rules={[{ pattern: /^[\d\s.-]*$/, message: 'Nomor rekening hanya boleh berisi angka.' }]}>
          <Input inputMode="numeric" maxLength={40} />
        </Form.Item>
        <Form.Item label="Nama Rekening" name="account_name">
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item label="Password" name="password" rules={[{ min: 8, message: 'Password must be at least 8 characters.' }]}>
          <Input.Password placeholder="Ganti Password ?" autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
