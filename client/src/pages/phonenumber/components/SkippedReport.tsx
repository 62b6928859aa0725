import { useTranslate } from '@refinedev/core';
import { Button, Space, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { ReportTable } from '../../../components/ReportTable';

/** The first rows an import skipped (the spec lists 5), the rest only in the downloads. */
export const INLINE_SKIPPED = 5;

interface Props<T> {
  summary: string;
  title?: string;
  rows: T[];
  total: number;
  columns: ColumnsType<T>;
  rowKey: (row: T, index?: number) => string;
  more: (total: number) => string;
  /** Whether the download buttons show only when more rows were skipped than are listed. */
  downloadsOnlyWhenMore?: boolean;
  onDownload: (format: 'csv' | 'json') => void;
}

/**
 * A skipped row's status is the record it met (an existing number's or proxy's); rows skipped before
 * reaching one (a bad number, a repeat in the file) have none. A Status column with nothing to show is
 * left out rather than drawn empty.
 */
export function withStatusWhenKnown<T extends object>(columns: ColumnsType<T>, rows: T[]): ColumnsType<T> {
  const known = rows.some((r) => {
    const status = (r as { status?: unknown }).status;
    return typeof status === 'string' && status.trim() !== '';
  });
  return known ? columns : columns.filter((c) => c.key !== 'status');
}

export function SkippedReport<T extends object>({ summary, title, rows, total, columns, rowKey, more, downloadsOnlyWhenMore, onDownload }: Props<T>) {
  const t = useTranslate();
  const shown = rows.slice(0, INLINE_SKIPPED);
  const showDownloads = !downloadsOnlyWhenMore || total > INLINE_SKIPPED;
  return (
    <div data-testid="import-result" style={{ marginTop: 16 }}>
      <Typography.Paragraph strong>{summary}</Typography.Paragraph>
      {total > 0 && (
        <>
          {title && <Typography.Title level={5}>{title}</Typography.Title>}
          <ReportTable<T>
            size="small"
            rowKey={(r) => rowKey(r, rows.indexOf(r))}
            dataSource={shown}
            columns={withStatusWhenKnown(columns, shown)}
            pagination={false}
            scroll={{ x: true }}
            data-testid="skipped-table"
          />
          {total > INLINE_SKIPPED && <Typography.Paragraph style={{ marginTop: 8 }}>{more(total)}</Typography.Paragraph>}
        </>
      )}
      {showDownloads && (
        <Space style={{ marginTop: 8 }}>
          <Button onClick={() => onDownload('csv')}>{t('phonenumber.downloadCsv')}</Button>
          <Button onClick={() => onDownload('json')}>{t('phonenumber.downloadJson')}</Button>
        </Space>
      )}
    </div>
  );
}
