import { Spin } from 'antd';

/** Shown while a screen's code or the session check is loading. */
export function PageFallback({ full = false }: { full?: boolean }) {
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: full ? '100vh' : 240 }}>
      <Spin size="large" />
    </div>
  );
}
