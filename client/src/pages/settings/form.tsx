import { Edit } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Form, Input, Select } from 'antd';
import { useMemo } from 'react';
import { PHONE_COUNTRIES } from '../../../../common/phone-countries';
import { atLeast, FormError, HiddenSubmit, IntegerItem } from '../../components/FormParts';
import { useResourceForm } from '../../components/ResourceForm';
import { reloadConfig } from '../../lib/config';
import { i18n } from '../../providers/i18n';
import { SendWindowFields } from './components/SendWindowFields';

export interface Settings {
  interval_min: number;
  interval_max: number;
  price: number;
  bank_names: string;
  colors: string;
  referral_percent: number;
  info: string;
  recipient_cooldown: number;
  /** 'Maks. Percobaan': attempts a number gets at one message (retries with a policy). */
  max_attempts: number;
  default_country: string;
  /** 'Pendaftaran': who may sign up. */
  signup_mode: 'open' | 'referral' | 'closed';
  /** 'Jam Kirim' (HH:MM) and the install's time zone. */
  send_from: string;
  send_to: string;
  time_zone: string;
}

const SIGNUP_MODES = ['open', 'referral', 'closed'] as const;

/** The settings are one record; the data provider reads and saves it at its fixed paths. */
const SETTINGS_ID = 'settings';

/** Country codes with their names in the console's language ('ID — Indonesia'). */
function useCountryOptions(lang: string) {
  return useMemo(() => {
    const names = new Intl.DisplayNames([lang], { type: 'region' });
    return PHONE_COUNTRIES.map((code) => ({ value: code, label: `${code} — ${names.of(code) ?? code}` }));
  }, [lang]);
}

/**
 * /settings ('Form Pengaturan'): the global settings, every field required. Refine's `<Edit>` of the one
 * settings record, saved by its footer's 'Simpan' (the spec's words through `saveButtonProps`).
 */
export function SettingsForm() {
  const t = useTranslate();
  const countries = useCountryOptions(i18n.language);
  const { formProps, saveButtonProps, loading, error } = useResourceForm<Settings>({
    resource: 'settings',
    edit: true,
    id: SETTINGS_ID,
    loadFallback: t('settings.errors.one'),
    saved: t('settings.saved'),
    // Phone numbers typed from now on are read with the (maybe new) default country.
    onSaved: () => reloadConfig(),
  });

  return (
    <Edit
      title={t('settings.title')}
      resource="settings"
      recordItemId={SETTINGS_ID}
      breadcrumb={false}
      goBack={false}
      isLoading={loading}
      headerButtons={() => null}
      saveButtonProps={saveButtonProps}
      contentProps={{ style: { maxWidth: 640 } }}
    >
      <FormError error={error} />
      <Form {...formProps} layout="vertical">
        <IntegerItem label={t('settings.fields.intervalMin')} name="interval_min" what={t('settings.what.intervalMin')} />
        <IntegerItem
          label={t('settings.fields.intervalMax')}
          name="interval_max"
          what={t('settings.what.intervalMax')}
          dependencies={['interval_min']}
          rules={[atLeast('interval_min')]}
        />
        <IntegerItem label={t('settings.fields.price')} name="price" what={t('settings.what.price')} extra={t('settings.hints.price')} />
        <Form.Item
          label={t('settings.fields.bankNames')}
          name="bank_names"
          rules={[{ required: true, whitespace: true, message: t('settings.required.bankNames') }]}
          extra={t('settings.hints.bankNames')}
        >
          <Input />
        </Form.Item>
        <Form.Item
          label={t('settings.fields.colors')}
          name="colors"
          rules={[{ required: true, whitespace: true, message: t('settings.required.colors') }]}
          extra={t('settings.hints.colors')}
        >
          <Input />
        </Form.Item>
        <IntegerItem
          label={t('settings.fields.referralPercent')}
          name="referral_percent"
          what={t('settings.what.referralPercent')}
          max={100}
          extra={t('settings.hints.referralPercent')}
        />
        <IntegerItem
          label={t('settings.fields.recipientCooldown')}
          name="recipient_cooldown"
          what={t('settings.what.recipientCooldown')}
          max={8760}
          extra={t('settings.hints.recipientCooldown')}
        />
        <IntegerItem
          label={t('settings.fields.maxAttempts')}
          name="max_attempts"
          what={t('settings.what.maxAttempts')}
          max={10}
          rules={[{ type: 'number', min: 1, max: 10, message: t('errors.max_attempts_range') }]}
          extra={t('settings.hints.maxAttempts')}
        />
        <SendWindowFields />
        <Form.Item label={t('settings.fields.defaultCountry')} name="default_country" extra={t('settings.hints.defaultCountry')}>
          <Select showSearch options={countries} optionFilterProp="label" />
        </Form.Item>
        <Form.Item label={t('settings.fields.signupMode')} name="signup_mode" extra={t('settings.hints.signupMode')}>
          <Select options={SIGNUP_MODES.map((m) => ({ value: m, label: t(`settings.signupModes.${m}`) }))} />
        </Form.Item>
        <Form.Item
          label={t('settings.fields.info')}
          name="info"
          rules={[{ required: true, whitespace: true, message: t('settings.required.info') }]}
          extra={t('settings.hints.info')}
        >
          <Input.TextArea rows={4} maxLength={5000} />
        </Form.Item>
        <HiddenSubmit disabled={saveButtonProps.disabled} />
      </Form>
    </Edit>
  );
}
