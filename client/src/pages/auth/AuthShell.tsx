import { theme } from 'antd';
import type { ReactNode } from 'react';
import { LanguageSwitch } from '../../components/layout/LanguageSwitch';
import { LanguageButton, useAuthVars } from './controls';

/**
 * The centred panel of /signin and /signup, with the language switch above it. Plain elements with
 * antd's tokens rather than Card and Typography, which would double what /signin downloads.
 */
export function AuthShell({ width, children }: { width: number; children: ReactNode }) {
  const { token } = theme.useToken();
  const vars = useAuthVars();
  return (
    <main className="public-page" style={{ ...vars, minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16, color: token.colorText }}>
      <div style={{ width: '100%', maxWidth: width }}>
        <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 8 }}>
          <LanguageSwitch Button={LanguageButton} />
        </div>
        <div style={{ background: token.colorBgContainer, border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadiusLG, padding: 24 }}>
          {children}
        </div>
      </div>
    </main>
  );
}

export function AuthTitle({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return <h1 style={{ fontSize: token.fontSizeHeading3, fontWeight: 600, margin: '0 0 12px', color: token.colorTextHeading }}>{children}</h1>;
}

export function AuthText({ children, secondary = false, center = false }: { children: ReactNode; secondary?: boolean; center?: boolean }) {
  const { token } = theme.useToken();
  return (
    <p style={{ margin: center ? '16px 0 0' : '0 0 16px', textAlign: center ? 'center' : undefined, color: secondary ? token.colorTextSecondary : token.colorText }}>{children}</p>
  );
}

/** A labelled field; its error shows under it and is announced with the input. */
export function AuthField({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: 20 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 6 }}>
        {label}
      </label>
      {children}
      {error && (
        <div id={`${id}-error`} role="alert" style={{ color: token.colorError, marginTop: 4 }}>
          {error}
        </div>
      )}
    </div>
  );
}
