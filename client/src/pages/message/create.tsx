import { Card, Table, Typography } from 'antd';
import { useState } from 'react';
import { FilePicker, FormError } from '../../components/FormParts';
import { PageTitle } from '../../components/PageTitle';
import { uploadWithProgress } from '../../lib/transfer';
import { useFileImport } from '../../lib/useFileImport';
import { MessageForm } from './form';
import type { MessageRow } from './model';

interface ImportAnswer {
  created: MessageRow[];
  skipped: Array<{ index: number; text: string; reason: string }>;
}

/** /message/create: the template form plus the separate 'Upload JSON' form (.json only). */
export function MessageCreate() {
  const [error, setError] = useState<string | null>(null);
  const { file, setFile, result, busy, upload: send } = useFileImport<ImportAnswer>(setError);

  const upload = () => send((body) => uploadWithProgress<ImportAnswer>('/admin/message/import', body, () => undefined, 'Error importing File'));

  return (
    <div>
      <PageTitle title="Tambah Template Pesan" />
      <MessageForm id={null} />
      <Card title="Upload JSON" style={{ maxWidth: 760, marginTop: 16 }}>
        <FormError error={error} testId="import-error" />
        <FilePicker accept=".json" file={file} onFile={setFile} onUpload={() => void upload()} busy={busy} label="Upload JSON" />
        {result && (
          <div style={{ marginTop: 16 }} data-testid="template-import-result">
            <Typography.Paragraph strong>{result.created.length} template berhasil disimpan.</Typography.Paragraph>
            {result.skipped.length > 0 && (
              <Table
                size="small"
                rowKey="index"
                pagination={false}
                dataSource={result.skipped}
                columns={[
                  { title: 'No.', dataIndex: 'index', key: 'index' },
                  { title: 'Caption', dataIndex: 'text', key: 'text' },
                  { title: 'Alasan', dataIndex: 'reason', key: 'reason' },
                ]}
              />
            )}
          </div>
        )}
      </Card>
    </div>
  );
}
