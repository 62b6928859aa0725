import { useTranslate } from '@refinedev/core';
import { Form, Input } from 'antd';
import type { FormItemProps } from 'antd';
import { loadConfig, useClientConfig } from '../../lib/config';
import { loadPhone, phoneProblem } from '../phonenumber/components/phoneRules';
import { JobFormCard } from './JobForm';
import { useJobForm, type JobFormValues } from './useJobForm';

type GeneratorValues = JobFormValues & { start_number?: string; end_number?: string };

/** 'Tambah Akun Generator' at /generator/create; `?id=` edits a generator (its range is then fixed). */
export function GeneratorCreate() {
  const t = useTranslate();
  const { defaultCountry } = useClientConfig();
  const form = useJobForm('generator');
  const { id } = form;
  const start = (Form.useWatch('start_number', form.form) as string | undefined) ?? '';
  const end = (Form.useWatch('end_number', form.form) as string | undefined) ?? '';

  // Start above end: the spec's message under Target Nomor Awal.
  const startBeforeEnd: NonNullable<FormItemProps['rules']>[number] = ({ getFieldValue }) => ({
    validator: async (_, value: string | undefined) => {
      const { phoneOrNull } = await loadPhone();
      const a = phoneOrNull(value ?? '', defaultCountry);
      const b = phoneOrNull((getFieldValue('end_number') as string | undefined) ?? '', defaultCountry);
      if (a && b && BigInt(a) > BigInt(b)) throw new Error(t('generator.rangeOrder'));
    },
  });

  // A number outside the plan (letters, too few digits…): the server's message for that field, at once.
  // An edited generator keeps its stored range, whatever the default country is now.
  const inPlan = (label: string): NonNullable<FormItemProps['rules']>[number] => ({
    validator: async (_, value: string | undefined) => {
      if (id || !value?.trim()) return;
      // The configured country, even before the screen's copy of the config has arrived.
      const problem = await phoneProblem(value, (await loadConfig()).defaultCountry, label);
      if (problem) throw new Error(problem);
    },
  });

  const submit = () => {
    const values = form.form.getFieldsValue(true) as GeneratorValues;
    void form.save({ start_number: (values.start_number ?? '').trim(), end_number: (values.end_number ?? '').trim(), ...form.settingsBody(values) });
  };

  const disabled = form.account === 'new' || !start.trim() || !end.trim();

  return (
    <JobFormCard title={t('generator.createTitle')} form={form} disabled={disabled} onSubmit={submit}>
      <Form.Item label={t('generator.fields.start')} name="start_number" dependencies={['end_number']} rules={[{ whitespace: true }, inPlan('Target Nomor Awal'), startBeforeEnd]}>
        <Input name="start_number" disabled={Boolean(id)} placeholder="6281xxxxxxx" inputMode="numeric" />
      </Form.Item>
      <Form.Item label={t('generator.fields.end')} name="end_number" rules={[{ whitespace: true }, inPlan('Target Nomor Akhir')]}>
        <Input name="end_number" disabled={Boolean(id)} placeholder="6281xxxxxxx" inputMode="numeric" />
      </Form.Item>
    </JobFormCard>
  );
}
