import { useTranslate } from '@refinedev/core';
import { Button, Form, InputNumber, Typography } from 'antd';
import { formatCount } from '../lib/format';
import { i18n } from '../providers/i18n';
import type { FormItemProps, InputNumberProps } from 'antd';
import { readTypedNumber } from '../../../common/typed-number';

/** A form's failure in red: 'Error: {message}' (or the bare message with `bare`). */
export function FormError({ error, bare, testId = 'form-error' }: { error: string | null; bare?: boolean; testId?: string }) {
  const t = useTranslate();
  if (!error) return null;
  return (
    <Typography.Paragraph type="danger" data-testid={testId}>
      {bare ? error : t('shared.errorPrefix', { message: error })}
    </Typography.Paragraph>
  );
}

/**
 * Enter in a field submits the form: Refine's save button sits in the card's footer, outside the antd
 * Form, so the form keeps a hidden submit of its own for the keyboard.
 */
export function HiddenSubmit({ disabled }: { disabled?: boolean }) {
  // Disabled with the save button, so Enter submits only when Simpan could be clicked.
  return <button type="submit" hidden aria-hidden tabIndex={-1} disabled={disabled} />;
}

type IntegerItemProps = Omit<FormItemProps, 'rules' | 'children'> & {
  /** The field's name in '{what} wajib diisi dengan angka.'. */
  what: string;
  max?: number;
  rules?: FormItemProps['rules'];
};

/**
 * A required whole number from 0 (up to `max`), full width. What was typed stays as typed and is
 * refused with its reason: antd's own `min`/`precision` would silently turn -5 into 0 (a level that
 * pays nothing) or 1.5 into 2.
 */
export function IntegerItem({ what, max, rules = [], ...item }: IntegerItemProps) {
  return (
    <Form.Item {...item} validateFirst rules={[...wholeNumberRules(what, max), ...rules]}>
      <TypedNumberInput style={{ width: '100%' }} />
    </Form.Item>
  );
}

/**
 * antd's InputNumber reading '10.000' as ten thousand, as the console writes numbers (common/typed-number.ts),
 * without step handles: antd names them 'Increase Value' / 'Decrease Value' whatever the language and no
 * keyboard reaches them; ArrowUp / ArrowDown on the field step it (docs/decisions.md).
 */
export function TypedNumberInput(props: Omit<InputNumberProps, 'controls'>) {
  const { onChange, onInput } = props;
  return (
    <InputNumber
      parser={readTypedNumber}
      {...props}
      // Text that is no number ('abc') would silently fall back to the last value: the form gets NaN
      // instead, which its `notANumber` rule refuses with the field's message.
      onInput={(text) => {
        onInput?.(text);
        const read = readTypedNumber(text);
        if (read !== '' && !Number.isFinite(Number(read))) onChange?.(Number.NaN as never);
      }}
      controls={false}
    />
  );
}

/** '{what} harus berupa angka.' for a number field given text that is no number (TypedNumberInput's NaN). */
export function notANumberRule(what: string): NonNullable<FormItemProps['rules']>[number] {
  return {
    validator: (_, value: unknown) => (typeof value === 'number' && Number.isNaN(value) ? Promise.reject(new Error(i18n.t('shared.notANumber', { what }))) : Promise.resolve()),
  };
}

/** The rules of a required whole number from 0 (up to `max`), each failure with its own message. */
export function wholeNumberRules(what: string, max?: number): NonNullable<FormItemProps['rules']> {
  return [
    notANumberRule(what),
    { required: true, message: i18n.t('shared.requiredNumber', { what }) },
    { type: 'integer', message: i18n.t('shared.wholeNumber', { what }) },
    { type: 'integer', min: 0, message: i18n.t('shared.notNegative', { what }) },
    ...(max === undefined ? [] : [{ type: 'integer' as const, max, message: i18n.t('shared.atMost', { what, max: formatCount(max) }) }]),
  ];
}

/** 'Interval minimal harus lebih kecil dari interval maksimal' unless the max is at least the `minName` field. */
export const atLeast =
  (minName: string): NonNullable<FormItemProps['rules']>[number] =>
  ({ getFieldValue }) => ({
    validator: (_, value: number | null) =>
      value === null || value === undefined || getFieldValue(minName) <= value
        ? Promise.resolve()
        : Promise.reject(new Error(i18n.t('shared.intervalOrder'))),
  });
