import { App, Button, Card, Col, Form, Input, Row, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { useState } from 'react';
import { PageTitle } from '../../components/PageTitle';
import { downloadCsv, downloadJson } from '../../lib/download';
import { api, errorText } from '../../lib/http';
import { useGoBack } from '../member/useGoBack';
import { SkippedReport } from '../phonenumber/components/SkippedReport';
import { uploadWithProgress } from '../phonenumber/transfer';
import type { ProxyRow } from './list';

interface Skipped {
  id: number | null;
  value: string;
  name: string;
  status: string;
  reason: string;
}

const NETWORK = 'Network error. Please try again.';

/** 'Tambah Proxy' (/proxy/create): one value by hand, or a .csv / .json file. */
export function ProxyCreate() {
  const { modal } = App.useApp();
  const goBack = useGoBack('/proxy');
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [file, setFile] = useState<UploadFile | null>(null);
  const [result, setResult] = useState<{ created: ProxyRow[]; skipped: Skipped[] } | null>(null);

  const save = async (values: { value: string }) => {
    setSaving(true);
    setError(null);
    try {
      await api('/admin/proxy/save', { method: 'POST', body: values, fallback: NETWORK });
      goBack();
    } catch (err) {
      setError(errorText(err, NETWORK));
    } finally {
      setSaving(false);
    }
  };

  const upload = async () => {
    const raw = file?.originFileObj;
    if (!raw) {
      setError('File wajib diunggah.');
      return;
    }
    setError(null);
    setResult(null);
    setUploading(true);
    const body = new FormData();
    body.append('file', raw);
    try {
      setResult(await uploadWithProgress('/admin/proxy/import', body, () => undefined, 'Error importing File'));
      setFile(null);
    } catch (err) {
      setError(errorText(err, NETWORK));
    } finally {
      setUploading(false);
    }
  };

  const download = (format: 'csv' | 'json') => {
    if (!result || result.skipped.length === 0) {
      modal.warning({ title: 'No proxies to export.' });
      return;
    }
    if (format === 'csv') downloadCsv(result.skipped as unknown as Array<Record<string, unknown>>, ['value', 'status', 'reason'], 'proxies.csv');
    else downloadJson(result.skipped, 'proxies_skipped.json');
  };

  return (
    <div>
      <PageTitle title="Tambah Proxy" />
      {error && (
        <Typography.Paragraph type="danger" data-testid="form-error">
          Error: {error}
        </Typography.Paragraph>
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title="Manual">
            <Form layout="vertical" onFinish={save}>
              <Form.Item
                label="Proxy"
                name="value"
                extra="host:port atau http|https|socks5://[user:pass@]host:port"
                rules={[{ required: true, whitespace: true, message: 'Proxy wajib diisi.' }]}
              >
                <Input placeholder="socks5://user:pass@10.0.0.1:1080" maxLength={500} />
              </Form.Item>
              <Button type="primary" htmlType="submit" disabled={saving}>
                {saving ? 'Menyimpan...' : 'Simpan Proxy'}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="Upload">
            <Upload
              accept=".csv,.json"
              maxCount={1}
              fileList={file ? [file] : []}
              beforeUpload={() => false}
              onChange={({ fileList }) => setFile(fileList[fileList.length - 1] ?? null)}
              onRemove={() => setFile(null)}
            >
              <Button>Pilih File</Button>
            </Upload>
            <Button type="primary" style={{ marginTop: 12 }} onClick={() => void upload()} disabled={uploading}>
              {uploading ? 'Mengunggah...' : 'Upload File'}
            </Button>
            {result && (
              <SkippedReport<Skipped>
                summary={`${result.created.length} proxy berhasil didaftarkan.`}
                rows={result.skipped}
                total={result.skipped.length}
                rowKey={(r, i) => `${i}-${r.value}`}
                more={(n) => `...total ${n} proxy. Download file untuk selengkapnya.`}
                downloadsOnlyWhenMore
                onDownload={download}
                columns={[
                  { title: 'Proxy', dataIndex: 'value', key: 'value' },
                  { title: 'Status', dataIndex: 'status', key: 'status' },
                  { title: 'Alasan', dataIndex: 'reason', key: 'reason' },
                ]}
              />
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
