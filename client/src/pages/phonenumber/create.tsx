import { App, Card, Col, Form, Input, Progress, Row, Typography } from 'antd';
import { useRef, useState } from 'react';
import { FilePicker, FormError, SaveButton } from '../../components/FormParts';
import { PageTitle } from '../../components/PageTitle';
import { downloadCsv, downloadJson } from '../../lib/download';
import { formatCount } from '../../lib/format';
import { api, errorText } from '../../lib/http';
import { getSessionUser } from '../../lib/session';
import { downloadFromApi, newImportId, uploadWithProgress } from '../../lib/transfer';
import { useFileImport } from '../../lib/useFileImport';
import { useSaveForm } from '../../lib/useSaveForm';
import { useLive } from '../../providers/live';
import { useGoBack } from '../member/useGoBack';
import { SkippedReport } from './components/SkippedReport';
import { PHONE_RULES } from './components/phoneRules';
import type { PhoneNumberRow } from './live';

interface Skipped {
  id: number | null;
  number: string;
  name: string;
  status: string;
  reason: string;
}

interface ImportAnswer {
  created: PhoneNumberRow[];
  skipped: Skipped[];
  createdCount: number;
  skippedCount: number;
  skippedFile: string | null;
}

interface Progressing {
  label: string;
  percent: number;
}

const NETWORK = 'Network error. Please try again.';
const NO_EXPORT = 'No phone numbers to export.';

/** 'Tambah Phone Number' (/phonenumber/create): the manual form and the file upload. */
export function PhoneNumberCreate() {
  const { modal } = App.useApp();
  const goBack = useGoBack('/phonenumber');
  const user = getSessionUser();
  const [form] = Form.useForm<{ number: string; name: string }>();
  const { saving, error, setError, run } = useSaveForm();
  const { file, setFile, result, upload: send } = useFileImport<ImportAnswer>(setError);
  const [progress, setProgress] = useState<Progressing | null>(null);
  const importId = useRef<string | null>(null);

  useLive<{ importId?: string; phase?: string; rows?: number; bytes?: number; totalBytes?: number }>(user ? String(user.id) : null, (msg) => {
    if (msg.event !== 'phonenumber-import' || !importId.current || msg.data.importId !== importId.current) return;
    const rows = formatCount(msg.data.rows);
    if (msg.data.phase === 'saving') setProgress({ label: `Menyimpan ${rows} baris...`, percent: 100 });
    else if (msg.data.phase === 'checking') setProgress({ label: `Memeriksa duplikat ${rows} baris...`, percent: 100 });
    else setProgress({ label: `Memproses ${rows} baris...`, percent: Math.round(((msg.data.bytes ?? 0) / Math.max(1, msg.data.totalBytes ?? 1)) * 100) });
  });

  const save = (values: { number: string; name: string }) =>
    run(async () => {
      await api('/admin/phonenumber/save', { method: 'POST', body: values, fallback: NETWORK });
      goBack();
    });

  const upload = () =>
    send(
      (body) => {
        const id = newImportId();
        importId.current = id;
        setProgress({ label: 'Mengunggah...', percent: 0 });
        return uploadWithProgress<ImportAnswer>(
          `/admin/phonenumber/import?importId=${id}`,
          body,
          (f) => setProgress((p) => (p && p.label === 'Mengunggah...' ? { label: 'Mengunggah...', percent: Math.round(f * 100) } : p)),
          'Error importing File',
        );
      },
      () => {
        importId.current = null;
        setProgress(null);
      },
    );

  const downloadSkipped = async (format: 'csv' | 'json') => {
    if (!result || result.skippedCount === 0) {
      modal.warning({ title: NO_EXPORT });
      return;
    }
    try {
      if (result.skippedFile) {
        await downloadFromApi(`/admin/phonenumber/skipped/${result.skippedFile}?format=${format}`, `phone_numbers_skipped.${format}`);
      } else if (format === 'csv') downloadCsv(result.skipped as unknown as Array<Record<string, unknown>>, ['number', 'name', 'status', 'reason'], 'phone_numbers_skipped.csv');
      else downloadJson(result.skipped, 'phone_numbers_skipped.json');
    } catch (err) {
      modal.error({ title: 'Gagal', content: errorText(err, NETWORK) });
    }
  };

  return (
    <div>
      <PageTitle title="Tambah Phone Number" />
      <FormError error={error} bare />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title="Manual">
            <Form form={form} layout="vertical" onFinish={save}>
              <Form.Item label="Nomor Telepon" name="number" rules={PHONE_RULES}>
                <Input placeholder="6281xxxxxxx" inputMode="tel" maxLength={32} />
              </Form.Item>
              <Form.Item label="Nama" name="name" rules={[{ required: true, whitespace: true, message: 'Nama wajib diisi.' }]}>
                <Input maxLength={200} />
              </Form.Item>
              <SaveButton saving={saving} label="Simpan Nomor" />
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="Upload">
            <Typography.Paragraph type="secondary">
              File .csv (kolom number,name; dengan atau tanpa header; koma atau titik koma) atau .json (array nomor atau {'{number, name}'}).
            </Typography.Paragraph>
            <FilePicker accept=".csv,.json" file={file} onFile={setFile} onUpload={() => void upload()} busy={progress !== null} label="Upload File" />
            {progress && (
              <div data-testid="import-progress" style={{ marginTop: 12 }}>
                <Typography.Text>{progress.label}</Typography.Text>
                <Progress percent={progress.percent} status="active" />
              </div>
            )}
            {result && (
              <SkippedReport<Skipped>
                summary={`Total ${formatCount(result.createdCount)} nomor, berhasil didaftarkan.`}
                title={result.skippedCount > 0 ? 'Daftar nomor yang dilewatkan' : undefined}
                rows={result.skipped}
                total={result.skippedCount}
                rowKey={(r, i) => `${i}-${r.number}`}
                more={(n) => `...total ${formatCount(n)} nomor. Download file untuk selengkapnya.`}
                onDownload={(f) => void downloadSkipped(f)}
                columns={[
                  { title: 'Phone Number', dataIndex: 'number', key: 'number' },
                  { title: 'Name', dataIndex: 'name', key: 'name' },
                  { title: 'Status', dataIndex: 'status', key: 'status', render: (s: string) => s || '-' },
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
