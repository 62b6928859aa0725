import { App, Card, Col, Form, Input, Row } from 'antd';
import { FilePicker, FormError, SaveButton } from '../../components/FormParts';
import { PageTitle } from '../../components/PageTitle';
import { downloadCsv, downloadJson } from '../../lib/download';
import { api } from '../../lib/http';
import { uploadWithProgress } from '../../lib/transfer';
import { useFileImport } from '../../lib/useFileImport';
import { useSaveForm } from '../../lib/useSaveForm';
import { useGoBack } from '../member/useGoBack';
import { SkippedReport } from '../phonenumber/components/SkippedReport';
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
  const { saving, error, setError, run } = useSaveForm();
  const { file, setFile, result, busy: uploading, upload: send } = useFileImport<{ created: ProxyRow[]; skipped: Skipped[] }>(setError);

  const save = (values: { value: string }) =>
    run(async () => {
      await api('/admin/proxy/save', { method: 'POST', body: values, fallback: NETWORK });
      goBack();
    });

  const upload = () => send((body) => uploadWithProgress('/admin/proxy/import', body, () => undefined, 'Error importing File'));

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
      <FormError error={error} />
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
              <SaveButton saving={saving} label="Simpan Proxy" />
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="Upload">
            <FilePicker accept=".csv,.json" file={file} onFile={setFile} onUpload={() => void upload()} busy={uploading} label={uploading ? 'Mengunggah...' : 'Upload File'} />
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
