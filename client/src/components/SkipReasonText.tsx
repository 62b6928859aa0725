import { useTranslate } from '@refinedev/core';
import { skipReasonText } from '../lib/serverError';
import type { SkipReason } from '../lib/skipReason';

/** A skipped row's reason in the active language (loaded by ReportTable.tsx's `SkipReasonCell`). */
export default function SkipReasonText({ row }: { row: SkipReason }) {
  const t = useTranslate();
  return <>{skipReasonText(row, t)}</>;
}
