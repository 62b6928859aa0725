import { lazy, Suspense, type ReactElement } from 'react';
import type { TableProps } from 'antd';
import type { SkipReason } from '../lib/skipReason';

/**
 * antd's Table for a report a screen shows only after an action (the rows an import skipped), loaded when
 * the report is first drawn: a create screen would otherwise carry the whole Table (about 43 KB gzip) on
 * its first load for a report most saves never show.
 */
const Table = /* @__PURE__ */ lazy(() => import('antd/es/table'));
/**
 * A skipped row's reason is translated through the server's message table (common/errors.ts, about 6.5 KB
 * gzip), which a create screen needs only once it shows a report: it loads with the report. The cell has no
 * boundary of its own, so the report shows once its reasons can be read (ReportTable's Suspense).
 */
const Reason = /* @__PURE__ */ lazy(() => import('./SkipReasonText'));

/** A skipped row's reason in the active language, for a column of a `ReportTable`. */
export function SkipReasonCell({ row }: { row: SkipReason }) {
  return <Reason row={row} />;
}

export function ReportTable<T extends object>(props: TableProps<T>) {
  const Typed = Table as unknown as (p: TableProps<T>) => ReactElement;
  return (
    <Suspense fallback={null}>
      <Typed {...props} />
    </Suspense>
  );
}
