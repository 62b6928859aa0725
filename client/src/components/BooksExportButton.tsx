import { useCan, useTranslate } from '@refinedev/core';
import { Alert, Button, Form, Input, Modal, Radio, Space, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useState } from 'react';

type Report = 'members' | 'withdrawals' | 'messagelog' | 'audit';

/** Which reports need a date range: required, optional (the audit log: whole when left empty) or none. */
const RANGE: Record<Report, 'required' | 'optional' | 'none'> = { members: 'none', withdrawals: 'required', messagelog: 'required', audit: 'optional' };

const today = () => {
  // The service's day is the WIB day (UTC+7).
  const wib = new Date(Date.now() + 7 * 3_600_000);
  return wib.toISOString().slice(0, 10);
};
const firstOfMonth = () => `${today().slice(0, 8)}01`;

/**
 * 'Ekspor': the books' CSV downloads (members, withdrawals with bank details for admins, the message log,
 * the audit log) in one dialog, with a WIB date range where the report takes one. The server streams each
 * file; refusals (a range missing or reversed) show in the dialog in the screen's language.
 */
export function BooksExportButton() {
  const t = useTranslate();
  const isAdmin = useCan({ resource: 'books', action: 'withdrawals' }).data?.can === true;
  const [open, setOpen] = useState(false);
  const [report, setReport] = useState<Report>('members');
  const [from, setFrom] = useState(firstOfMonth);
  const [to, setTo] = useState(today);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reports: Report[] = isAdmin ? ['members', 'withdrawals', 'messagelog', 'audit'] : ['members', 'messagelog', 'audit'];
  const range = RANGE[report];

  const download = async () => {
    setBusy(true);
    setError(null);
    const withRange = range === 'required' || (range === 'optional' && (from || to));
    const query = withRange ? `?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}` : '';
    const base = { members: 'members', withdrawals: 'withdrawals', messagelog: 'message_log', audit: 'audit_log' }[report];
    try {
      // The download code loads with the first export, not with the screen.
      const { downloadFromApi } = await import('../lib/transfer');
      await downloadFromApi(`/admin/export/${report}${query}`, withRange ? `${base}_${from}_${to}.csv` : `${base}.csv`, t('audit.export.failed'));
      setOpen(false);
    } catch (err) {
      setError(err instanceof Error ? err.message : t('audit.export.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button icon={<DownloadOutlined />} onClick={() => setOpen(true)}>
        {t('audit.export.button')}
      </Button>
      <Modal
        open={open}
        title={t('audit.export.title')}
        onCancel={() => setOpen(false)}
        onOk={() => void download()}
        okText={busy ? t('audit.export.downloading') : t('audit.export.download')}
        cancelText={t('shared.cancel')}
        okButtonProps={{ disabled: busy }}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('audit.export.hint')}</Typography.Paragraph>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        <Form layout="vertical">
          <Form.Item label={t('audit.export.report')}>
            <Radio.Group value={report} onChange={(e) => setReport(e.target.value as Report)} aria-label={t('audit.export.report')}>
              <Space direction="vertical">
                {reports.map((r) => (
                  <Radio key={r} value={r}>
                    {t(`audit.export.reports.${r}`)}
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          {range !== 'none' && (
            <Space wrap>
              <Form.Item label={t('audit.export.from')} htmlFor="books-export-from" required={range === 'required'}>
                <Input id="books-export-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
              </Form.Item>
              <Form.Item label={t('audit.export.to')} htmlFor="books-export-to" required={range === 'required'}>
                <Input id="books-export-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
              </Form.Item>
            </Space>
          )}
        </Form>
      </Modal>
    </>
  );
}
