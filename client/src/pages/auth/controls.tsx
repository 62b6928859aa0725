import { CloseCircleFilled, EyeInvisibleOutlined, EyeOutlined, InfoCircleFilled } from '@ant-design/icons';
import { theme } from 'antd';
import { useLayoutEffect, useRef, useState, type ButtonHTMLAttributes, type CSSProperties, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { LanguageButtonProps } from '../../components/layout/LanguageSwitch';

/**
 * The sign-in pages' field, button, checkbox and alert: plain elements drawn like antd's Input, Button,
 * Checkbox and Alert (styles.css, `.auth-*`) from the same theme tokens, so they follow light and dark. antd's
 * own components bring their style generators, wave effect and motion with them: about 25 KB gzip that
 * /signin, the first page of every visit, would download for four controls (docs/decisions.md, 'A lighter
 * /signin').
 */
export function useAuthVars(): CSSProperties {
  const { token } = theme.useToken();
  return {
    '--auth-text': token.colorText,
    '--auth-heading': token.colorTextHeading,
    '--auth-placeholder': token.colorTextPlaceholder,
    '--auth-bg': token.colorBgContainer,
    '--auth-border': token.colorBorder,
    '--auth-primary': token.colorPrimary,
    '--auth-primary-hover': token.colorPrimaryHover,
    '--auth-primary-active': token.colorPrimaryActive,
    '--auth-ring': token.colorPrimaryBorder,
    '--auth-outline': token.controlOutline,
    '--auth-on-primary': token.colorTextLightSolid,
    '--auth-disabled-bg': token.colorBgContainerDisabled,
    '--auth-disabled-text': token.colorTextDisabled,
    '--auth-text-hover-bg': token.colorBgTextHover,
    '--auth-text-active-bg': token.colorBgTextActive,
    '--auth-link': token.colorLink,
    '--auth-link-hover': token.colorLinkHover,
    '--auth-link-active': token.colorLinkActive,
    '--auth-white': token.colorWhite,
    '--auth-error': token.colorError,
    '--auth-error-bg': token.colorErrorBg,
    '--auth-error-border': token.colorErrorBorder,
    '--auth-info': token.colorInfo,
    '--auth-info-bg': token.colorInfoBg,
    '--auth-info-border': token.colorInfoBorder,
  } as CSSProperties;
}

export function TextInput({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input {...props} className={`auth-input${className ? ` ${className}` : ''}`} />;
}

/** A password field with its show/hide toggle: a button Tab reaches, named 'Tampilkan password' / 'Show password'. */
export function PasswordInput({ type: _type, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, 'className'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const ref = useRef<HTMLInputElement>(null);
  // React writes a controlled field's value into its `value` attribute; a typed password stays out of the DOM.
  useLayoutEffect(() => {
    if (!visible) ref.current?.removeAttribute('value');
  });
  return (
    <span className="auth-input auth-input-affix" onMouseDown={(e) => e.target !== ref.current && e.preventDefault()} onClick={() => ref.current?.focus()}>
      <input {...props} ref={ref} type={visible ? 'text' : 'password'} />
      <span className="auth-input-suffix">
        <button
          type="button"
          className="auth-password-toggle"
          aria-label={visible ? t('common.hidePassword') : t('common.showPassword')}
          onClick={(e) => {
            setVisible((v) => !v);
            // A click in the field focuses the field; a key press on the toggle keeps focus on the toggle.
            e.stopPropagation();
          }}
        >
          {visible ? <EyeOutlined aria-hidden /> : <EyeInvisibleOutlined aria-hidden />}
        </button>
      </span>
    </span>
  );
}

/** The form's primary button (full width), or a link-styled one. */
export function AuthButton({ variant = 'primary', className, type = 'button', ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'link' }) {
  return <button {...props} type={type} className={`auth-button auth-button-${variant}${variant === 'primary' ? ' auth-button-block' : ''}${className ? ` ${className}` : ''}`} />;
}

/** The language switch's buttons on the sign-in pages: small, the language on screen pressed. */
export function LanguageButton({ selected, ...props }: LanguageButtonProps) {
  return <button {...props} type="button" aria-pressed={selected} className={`auth-button auth-button-small auth-button-${selected ? 'primary' : 'text'}`} />;
}

export function AuthCheckbox({ checked, onChange, children, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange'> & { onChange: (checked: boolean) => void; children: ReactNode }) {
  return (
    <label className="auth-checkbox">
      <span className="auth-checkbox-box">
        <input {...props} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      </span>
      <span className="auth-checkbox-label">{children}</span>
    </label>
  );
}

/** An error or information box with its icon; read out as it appears (role="alert"). */
export function AuthAlert({ type, message, description, style, 'data-testid': testId }: { type: 'error' | 'info'; message: ReactNode; description?: ReactNode; style?: CSSProperties; 'data-testid'?: string }) {
  return (
    <div role="alert" className={`auth-alert auth-alert-${type}${description ? ' auth-alert-with-description' : ''}`} style={style} data-testid={testId}>
      <span className="auth-alert-icon">{type === 'error' ? <CloseCircleFilled aria-hidden /> : <InfoCircleFilled aria-hidden />}</span>
      <div className="auth-alert-content">
        <div className="auth-alert-message">{message}</div>
        {description && <div className="auth-alert-description">{description}</div>}
      </div>
    </div>
  );
}
