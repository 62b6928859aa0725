import { useInvalidate, useTranslate } from '@refinedev/core';
import { Card, Typography } from 'antd';
import { ReportTable, SkipReasonCell } from '../../components/ReportTable';
import { useState } from 'react';
import { FilePicker } from '../../components/FilePicker';
import { FormError } from '../../components/FormParts';
import { uploadWithProgress } from '../../lib/transfer';
import { useFileImport } from '../../lib/useFileImport';
import { MessageForm } from './form';
import type { MessageRow } from './model';

interface ImportAnswer {
  created: MessageRow[];
  skipped: Array<{ index: number; text: string; reason: string; reasonCode?: string }>;
}

/** /message/create: the template form plus the separate 'Upload JSON' form (.json only). */
export function MessageCreate() {
  const t = useTranslate();
  const invalidate = useInvalidate();
  const [error, setError] = useState<string | null>(null);
  const { file, setFile, result, busy, upload: send } = useFileImport<ImportAnswer>(setError);

  // Multipart with progress goes through XHR; the template list is then refetched from Refine's cache.
  const upload = () =>
    send(
      (body) => uploadWithProgress<ImportAnswer>('/admin/message/import', body, () => undefined, t('message.errors.import')),
      () => void invalidate({ resource: 'message', invalidates: ['list'] }),
    );

  return (
    <div>
      <MessageForm id={null} title={t('message.createTitle')} />
      <Card title={t('message.uploadJson')} style={{ maxWidth: 760, marginTop: 16 }}>
        <FormError error={error} testId="import-error" />
        <FilePicker accept=".json" file={file} onFile={setFile} onUpload={() => void upload()} busy={busy} label={t('message.uploadJson')} />
        {result && (
          <div style={{ marginTop: 16 }} data-testid="template-import-result">
            <Typography.Paragraph strong>{t('message.saved', { count: result.created.length })}</Typography.Paragraph>
            {result.skipped.length > 0 && (
              <ReportTable
                size="small"
                rowKey="index"
                pagination={false}
                dataSource={result.skipped}
                columns={[
                  { title: t('message.fields.no'), dataIndex: 'index', key: 'index' },
                  { title: t('message.fields.caption'), dataIndex: 'text', key: 'text' },
                  { title: t('message.fields.reason'), dataIndex: 'reason', key: 'reason', render: (_: string, r: ImportAnswer['skipped'][number]) => <SkipReasonCell row={r} /> },
                ]}
              />
            )}
          </div>
        )}
      </Card>
    </div>
  );
}
