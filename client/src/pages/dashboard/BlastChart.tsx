import { useCustom, useTranslate } from '@refinedev/core';
import { Card, Checkbox, Empty, Spin } from 'antd';
import { lazy, Suspense, useId, useState } from 'react';
import { formatCount } from '../../lib/format';

const DailyChart = lazy(() => import('./DailyChart'));

export const CHART_DAYS = 14;

export interface DayCount {
  /** WIB calendar day, YYYY-MM-DD. */
  date: string;
  success: number;
  fail: number;
  /** Of the day's successful sends, those delivered and those read. */
  delivered: number;
  read: number;
}

/**
 * Successful and failed blasts per day for the last 14 days: a member's own (`userId`), or
 * everyone's for admin and dev. The server decides whose rows a caller may read.
 */
export function BlastChart({ userId }: { userId?: number }) {
  const t = useTranslate();
  const titleId = useId();
  const summaryId = useId();
  const { query, result } = useCustom<{ data: DayCount[] }>({
    url: '/admin/messagelog/daily',
    method: 'get',
    config: { query: { days: CHART_DAYS, ...(userId ? { userId } : {}) } },
    errorNotification: false,
  });
  const days = result.data?.data ?? [];
  const success = days.reduce((s, d) => s + d.success, 0);
  const fail = days.reduce((s, d) => s + d.fail, 0);
  const delivered = days.reduce((s, d) => s + (d.delivered ?? 0), 0);
  const read = days.reduce((s, d) => s + (d.read ?? 0), 0);
  // Delivered and read beside success and failure, on request: the plain chart stays the spec's.
  const [outcomes, setOutcomes] = useState(false);
  const loading = <Spin aria-label={t('dashboard.chart.loading')} style={{ display: 'block', margin: '100px auto' }} />;

  return (
    <Card
      title={<span id={titleId}>{t('dashboard.chart.title', { days: CHART_DAYS })}</span>}
      extra={
        <Checkbox checked={outcomes} onChange={(e) => setOutcomes(e.target.checked)}>
          {t('dashboard.chart.outcomes')}
        </Checkbox>
      }
      style={{ marginTop: 16 }}
      data-testid="blast-chart"
    >
      <div role="img" aria-labelledby={titleId} aria-describedby={summaryId} style={{ minHeight: 280 }}>
        {query.isLoading ? (
          loading
        ) : query.isError ? (
          <Empty description={t('dashboard.chart.failed')} />
        ) : (
          <Suspense fallback={loading}>
            <DailyChart
              days={days}
              outcomes={outcomes}
              labels={{ success: t('dashboard.chart.success'), fail: t('dashboard.chart.fail'), delivered: t('dashboard.chart.delivered'), read: t('dashboard.chart.read') }}
            />
          </Suspense>
        )}
      </div>
      <p id={summaryId} style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' }}>
        {outcomes
          ? t('dashboard.chart.summaryOutcomes', { days: CHART_DAYS, success: formatCount(success), delivered: formatCount(delivered), read: formatCount(read), fail: formatCount(fail) })
          : t('dashboard.chart.summary', { days: CHART_DAYS, success: formatCount(success), fail: formatCount(fail) })}
      </p>
    </Card>
  );
}
