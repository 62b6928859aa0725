import { lazy, Suspense, type ReactElement } from 'react';
import type { TableProps } from 'antd';

/**
 * antd's Table for a report a screen shows only after an action (the rows an import skipped), loaded when
 * the report is first drawn: a create screen would otherwise carry the whole Table (about 43 KB gzip) on
 * its first load for a report most saves never show.
 */
const Table = /* @__PURE__ */ lazy(() => import('antd/es/table'));

export function ReportTable<T extends object>(props: TableProps<T>) {
  const Typed = Table as unknown as (p: TableProps<T>) => ReactElement;
  return (
    <Suspense fallback={null}>
      <Typed {...props} />
    </Suspense>
  );
}
