import { useTable } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Alert, Table, Typography } from 'antd';
import { Pager } from '../../components/Pager';
import { PageTitle } from '../../components/PageTitle';
import { BooksExportButton } from '../../components/BooksExportButton';
import { formatDateTime } from '../../lib/format';
import { auditDetail } from './detail';

interface Person {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
}

export interface AuditRow {
  id: number;
  action: string;
  details: Record<string, unknown>;
  createdAt: string;
  actor: Person | null;
  target: Person | null;
}

const personName = (p: Person | null) => (p ? `${p.firstname} ${p.lastname}`.trim() || p.email : '-');

/** Who changed what for whom: roles, passwords, money and rules (admin and dev). */
export function AuditList() {
  const t = useTranslate();
  const { tableProps, currentPage, setCurrentPage, pageCount, tableQuery } = useTable<AuditRow>({
    resource: 'audit',
    pagination: { pageSize: 10, mode: 'server' },
    syncWithLocation: true,
  });
  const error = tableQuery.error;
  return (
    <div>
      <PageTitle title={t('audit.title')} extra={<BooksExportButton />} />
      {error && <Alert type="error" showIcon message={error.message || t('audit.error')} style={{ marginBottom: 16 }} />}
      <Table<AuditRow> {...tableProps} rowKey="id" pagination={false} scroll={{ x: true }} locale={{ emptyText: t('audit.empty') }}>
        <Table.Column<AuditRow> key="time" title={t('audit.fields.time')} render={(_, r) => formatDateTime(r.createdAt)} />
        <Table.Column<AuditRow> key="actor" title={t('audit.fields.actor')} render={(_, r) => personName(r.actor)} />
        <Table.Column<AuditRow> key="target" title={t('audit.fields.target')} render={(_, r) => personName(r.target)} />
        <Table.Column<AuditRow> key="action" title={t('audit.fields.action')} render={(_, r) => t(`audit.actions.${r.action}`, r.action)} />
        <Table.Column<AuditRow>
          key="detail"
          title={t('audit.fields.detail')}
          render={(_, r) => <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{auditDetail(r.action, r.details, t)}</Typography.Text>}
        />
      </Table>
      <Pager page={currentPage} totalPages={pageCount} onChange={setCurrentPage} />
    </div>
  );
}
