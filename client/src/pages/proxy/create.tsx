import { useInvalidate, useTranslate } from '@refinedev/core';
import { Create, SaveButton } from '@refinedev/antd';
import { App, Card, Col, Form, Input, Row } from 'antd';
import { useState } from 'react';
import { FilePicker } from '../../components/FilePicker';
import { FormError, HiddenSubmit } from '../../components/FormParts';
import { TWO_WAY_CREATE } from '../../components/ResourceForm';
import { clearingOnSave, useResourceForm } from '../../components/ResourceForm';
import { downloadCsv, downloadJson } from '../../lib/download';
import { uploadWithProgress } from '../../lib/transfer';
import { useFileImport } from '../../lib/useFileImport';
import { useGoBack } from '../member/useGoBack';
import { SkipReasonCell } from '../../components/ReportTable';
import { withoutReasonCode } from '../../lib/skipReason';
import { SkippedReport } from '../phonenumber/components/SkippedReport';
import type { ProxyRow } from './list';

interface Skipped {
  id: number | null;
  value: string;
  name: string;
  status: string;
  reason: string;
  reasonCode?: string;
}

/** 'Tambah Proxy' (/proxy/create): one value by hand, or a .csv / .json file. */
export function ProxyCreate() {
  const t = useTranslate();
  const { modal } = App.useApp();
  const invalidate = useInvalidate();
  const goBack = useGoBack('/proxy');
  const { formProps, saveButtonProps, error: saveError, clearSaveError } = useResourceForm<ProxyRow>({ resource: 'proxy', onSaved: goBack, saveLabel: t('proxy.saveProxy') });
  const [importError, setImportError] = useState<string | null>(null);
  const { file, setFile, result, busy: uploading, upload: send } = useFileImport<{ created: ProxyRow[]; skipped: Skipped[] }>(setImportError);

  // The upload reports progress, so it goes through XHR; the proxy list is then refetched from Refine's cache.
  // Each of the two ways in shows only its own latest error.
  const upload = () => {
    clearSaveError();
    return send(
      (body) => uploadWithProgress('/admin/proxy/import', body, () => undefined, t('proxy.errors.import')),
      () => void invalidate({ resource: 'proxy', invalidates: ['list'] }),
    );
  };

  const download = (format: 'csv' | 'json') => {
    if (!result || result.skipped.length === 0) {
      modal.warning({ title: t('proxy.noExport') });
      return;
    }
    if (format === 'csv') void downloadCsv(result.skipped.map(withoutReasonCode) as unknown as Array<Record<string, unknown>>, ['value', 'status', 'reason'], 'proxies.csv');
    else downloadJson(result.skipped.map(withoutReasonCode), 'proxies_skipped.json');
  };

  return (
    <Create title={t('proxy.createTitle')} resource="proxy" breadcrumb={false} goBack={false} {...TWO_WAY_CREATE}>
      <FormError error={saveError ?? importError} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('proxy.manual')}>
            <Form {...clearingOnSave(formProps, () => setImportError(null))} layout="vertical">
              <Form.Item label={t('proxy.fields.value')} name="value" extra={t('proxy.hint')} rules={[{ required: true, whitespace: true, message: t('proxy.required') }]}>
                <Input placeholder="socks5://user:pass@10.0.0.1:1080" maxLength={500} />
              </Form.Item>
              <SaveButton {...saveButtonProps} />
              <HiddenSubmit disabled={saveButtonProps.disabled} />
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('proxy.upload')}>
            <FilePicker accept=".csv,.json" file={file} onFile={setFile} onUpload={() => void upload()} busy={uploading} label={uploading ? t('shared.uploading') : t('proxy.uploadFile')} />
            {result && (
              <SkippedReport<Skipped>
                summary={t('proxy.registered', { count: result.created.length })}
                rows={result.skipped}
                total={result.skipped.length}
                rowKey={(r, i) => `${i}-${r.value}`}
                more={(n) => t('proxy.more', { count: n })}
                downloadsOnlyWhenMore
                onDownload={download}
                columns={[
                  { title: t('proxy.fields.value'), dataIndex: 'value', key: 'value' },
                  { title: t('proxy.fields.status'), dataIndex: 'status', key: 'status', render: (s: string) => s || '-' },
                  { title: t('proxy.fields.reason'), dataIndex: 'reason', key: 'reason', render: (_: string, r: Skipped) => <SkipReasonCell row={r} /> },
                ]}
              />
            )}
          </Card>
        </Col>
      </Row>
    </Create>
  );
}
