import { Button, Card, Table, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { useState } from 'react';
import { PageTitle } from '../../components/PageTitle';
import { errorText } from '../../lib/http';
import { uploadWithProgress } from '../phonenumber/transfer';
import { MessageForm } from './form';
import type { MessageRow } from './model';

interface ImportAnswer {
  created: MessageRow[];
  skipped: Array<{ index: number; text: string; reason: string }>;
}

/** /message/create: the template form plus the separate 'Upload JSON' form (.json only). */
export function MessageCreate() {
  const [file, setFile] = useState<UploadFile | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportAnswer | null>(null);

  const upload = async () => {
    const raw = file?.originFileObj;
    if (!raw) {
      setError('File wajib diunggah.');
      return;
    }
    const body = new FormData();
    body.append('file', raw);
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await uploadWithProgress<ImportAnswer>('/admin/message/import', body, () => undefined, 'Error importing File'));
      setFile(null);
    } catch (err) {
      setError(errorText(err, 'Network error. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <PageTitle title="Tambah Template Pesan" />
      <MessageForm id={null} />
      <Card title="Upload JSON" style={{ maxWidth: 760, marginTop: 16 }}>
        {error && (
          <Typography.Paragraph type="danger" data-testid="import-error">
            Error: {error}
          </Typography.Paragraph>
        )}
        <Upload
          accept=".json"
          maxCount={1}
          fileList={file ? [file] : []}
          beforeUpload={() => false}
          onChange={({ fileList }) => setFile(fileList[fileList.length - 1] ?? null)}
          onRemove={() => setFile(null)}
        >
          <Button>Pilih File</Button>
        </Upload>
        <Button type="primary" style={{ marginTop: 12 }} onClick={() => void upload()} disabled={busy}>
          Upload JSON
        </Button>
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
