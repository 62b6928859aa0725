import { useInvalidate, useTranslate } from '@refinedev/core';
import { Create, SaveButton } from '@refinedev/antd';
import { App, Card, Col, Form, Input, Progress, Row, Typography } from 'antd';
import { useRef, useState } from 'react';
import { FilePicker } from '../../components/FilePicker';
import { FormError, HiddenSubmit } from '../../components/FormParts';
import { clearingOnSave, TWO_WAY_CREATE, useResourceForm } from '../../components/ResourceForm';
import { downloadCsv, downloadJson } from '../../lib/download';
import { formatCount } from '../../lib/format';
import { errorText } from '../../lib/http';
import { SkipReasonCell } from '../../components/ReportTable';
import { withoutReasonCode } from '../../lib/skipReason';
import { getSessionUser } from '../../lib/session';
import { downloadFromApi, newImportId, uploadWithProgress } from '../../lib/transfer';
import { useFileImport } from '../../lib/useFileImport';
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
  reasonCode?: string;
}

interface ImportAnswer {
  created: PhoneNumberRow[];
  skipped: Skipped[];
  createdCount: number;
  skippedCount: number;
  skippedFile: string | null;
}

interface Progressing {
  phase: 'uploading' | 'reading' | 'checking' | 'saving';
  rows?: string;
  /** The row count behind `rows`, which picks the plural form. */
  count?: number;
  percent: number;
}

/** 'Tambah Phone Number' (/phonenumber/create): the manual form and the file upload. */
export function PhoneNumberCreate() {
  const t = useTranslate();
  const { modal } = App.useApp();
  const invalidate = useInvalidate();
  const goBack = useGoBack('/phonenumber');
  const user = getSessionUser();
  const { formProps, saveButtonProps, error: saveError, clearSaveError } = useResourceForm<PhoneNumberRow>({ resource: 'phonenumber', onSaved: goBack, saveLabel: t('phonenumber.saveNumber') });
  const [importError, setImportError] = useState<string | null>(null);
  const { file, setFile, result, upload: send } = useFileImport<ImportAnswer>(setImportError);
  const [progress, setProgress] = useState<Progressing | null>(null);
  const importId = useRef<string | null>(null);

  useLive<{ importId?: string; phase?: string; rows?: number; bytes?: number; totalBytes?: number }>(user ? String(user.id) : null, (msg) => {
    if (msg.event !== 'phonenumber-import' || !importId.current || msg.data.importId !== importId.current) return;
    const rows = formatCount(msg.data.rows);
    const count = msg.data.rows ?? 0;
    if (msg.data.phase === 'saving' || msg.data.phase === 'checking') setProgress({ phase: msg.data.phase, rows, count, percent: 100 });
    else setProgress({ phase: 'reading', rows, count, percent: Math.round(((msg.data.bytes ?? 0) / Math.max(1, msg.data.totalBytes ?? 1)) * 100) });
  });

  // The upload reports progress, so it goes through XHR; the list is then refetched from Refine's cache.
  // Each of the two ways in shows only its own latest error.
  const upload = () => {
    clearSaveError();
    return send(
      (body) => {
        const id = newImportId();
        importId.current = id;
        setProgress({ phase: 'uploading', percent: 0 });
        return uploadWithProgress<ImportAnswer>(
          `/admin/phonenumber/import?importId=${id}`,
          body,
          (f) => setProgress((p) => (p && p.phase === 'uploading' ? { phase: 'uploading', percent: Math.round(f * 100) } : p)),
          t('phonenumber.errors.import'),
        );
      },
      () => {
        importId.current = null;
        setProgress(null);
        void invalidate({ resource: 'phonenumber', invalidates: ['list'] });
      },
    );
  };

  const downloadSkipped = async (format: 'csv' | 'json') => {
    if (!result || result.skippedCount === 0) {
      modal.warning({ title: t('phonenumber.noExport') });
      return;
    }
    try {
      if (result.skippedFile) {
        await downloadFromApi(`/admin/phonenumber/skipped/${result.skippedFile}?format=${format}`, `phone_numbers_skipped.${format}`);
      } else if (format === 'csv') await downloadCsv(result.skipped.map(withoutReasonCode) as unknown as Array<Record<string, unknown>>, ['number', 'name', 'status', 'reason'], 'phone_numbers_skipped.csv');
      else downloadJson(result.skipped.map(withoutReasonCode), 'phone_numbers_skipped.json');
    } catch (err) {
      modal.error({ title: t('shared.failed'), content: errorText(err, t('shared.network')) });
    }
  };

  return (
    <Create title={t('phonenumber.createTitle')} resource="phonenumber" breadcrumb={false} goBack={false} {...TWO_WAY_CREATE}>
      <FormError error={saveError ?? importError} bare />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('phonenumber.manual')}>
            <Form {...clearingOnSave(formProps, () => setImportError(null))} layout="vertical">
              <Form.Item label={t('phonenumber.fields.number')} name="number" rules={PHONE_RULES}>
                <Input placeholder="6281xxxxxxx" inputMode="tel" maxLength={32} />
              </Form.Item>
              <Form.Item label={t('phonenumber.fields.nameInput')} name="name" rules={[{ required: true, whitespace: true, message: t('phonenumber.nameRequired') }]}>
                <Input maxLength={200} />
              </Form.Item>
              <SaveButton {...saveButtonProps} />
              <HiddenSubmit disabled={saveButtonProps.disabled} />
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('phonenumber.upload')}>
            <Typography.Paragraph type="secondary">{t('phonenumber.fileHint')}</Typography.Paragraph>
            <FilePicker accept=".csv,.json" file={file} onFile={setFile} onUpload={() => void upload()} busy={progress !== null} label={t('phonenumber.uploadFile')} />
            {progress && (
              <div data-testid="import-progress" style={{ marginTop: 12 }}>
                <Typography.Text>{t(`phonenumber.progress.${progress.phase}`, { rows: progress.rows, count: progress.count ?? 0 })}</Typography.Text>
                <Progress percent={progress.percent} status="active" />
              </div>
            )}
            {result && (
              <SkippedReport<Skipped>
                summary={t('phonenumber.registered', { total: formatCount(result.createdCount), count: result.createdCount })}
                title={result.skippedCount > 0 ? t('phonenumber.skippedTitle') : undefined}
                rows={result.skipped}
                total={result.skippedCount}
                rowKey={(r, i) => `${i}-${r.number}`}
                more={(n) => t('phonenumber.more', { total: formatCount(n), count: n })}
                onDownload={(f) => void downloadSkipped(f)}
                columns={[
                  { title: t('phonenumber.fields.phoneNumber'), dataIndex: 'number', key: 'number' },
                  { title: t('phonenumber.fields.name'), dataIndex: 'name', key: 'name' },
                  { title: t('phonenumber.fields.status'), dataIndex: 'status', key: 'status', render: (s: string) => s || '-' },
                  { title: t('phonenumber.fields.reason'), dataIndex: 'reason', key: 'reason', render: (_: string, r: Skipped) => <SkipReasonCell row={r} /> },
                ]}
              />
            )}
          </Card>
        </Col>
      </Row>
    </Create>
  );
}
