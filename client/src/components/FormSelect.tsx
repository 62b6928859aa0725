import { Select as AntdSelect, type SelectProps } from 'antd';
import type { BaseOptionType, DefaultOptionType, RefSelectProps } from 'antd/es/select';
import { useEffect, useRef, type PropsWithChildren } from 'react';

type Props<V, O extends BaseOptionType | DefaultOptionType> = PropsWithChildren<SelectProps<V, O>> & { 'aria-required'?: boolean | 'true' | 'false' };

/**
 * antd's Select for a required Form.Item. Form.Item hands its control `aria-required`, and rc-select puts
 * every aria-* prop both on its combobox input and on its outer <div>, where ARIA does not allow it (axe's
 * aria-allowed-attr, serious). This one keeps it off the <div> and sets it on the combobox alone, so a screen
 * reader still hears that the field is required.
 */
export function FormSelect<V = unknown, O extends BaseOptionType | DefaultOptionType = DefaultOptionType>(props: Props<V, O>) {
  const { 'aria-required': ariaRequired, ...rest } = props;
  const required = ariaRequired === true || ariaRequired === 'true';
  const ref = useRef<RefSelectProps>(null);
  useEffect(() => {
    const input = ref.current?.nativeElement?.querySelector('input[role="combobox"]');
    if (!input) return;
    if (required) input.setAttribute('aria-required', 'true');
    else input.removeAttribute('aria-required');
  });
  return <AntdSelect<V, O> ref={ref} {...rest} />;
}
