import { theme } from 'antd';

/**
 * Shown while a screen's code or the session check is loading: antd's large Spin drawn in CSS (styles.css,
 * `.page-spin`), as it is the first thing /signin paints and antd's Spin would add its style code there.
 */
export function PageFallback({ full = false }: { full?: boolean }) {
  const { token } = theme.useToken();
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: full ? '100vh' : 240 }}>
      <div aria-live="polite" aria-busy="true">
        <span className="page-spin" style={{ '--spin-color': token.colorPrimary } as React.CSSProperties}>
          <i />
          <i />
          <i />
          <i />
        </span>
      </div>
    </div>
  );
}
