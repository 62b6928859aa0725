import { List, useTable } from '@refinedev/antd';
import { useTranslate, type HttpError } from '@refinedev/core';
import { Table, Typography } from 'antd';
import { ListTable } from '../../components/ListTable';
import { BooksExportButton } from '../../components/BooksExportButton';
import { formatDateTime } from '../../lib/format';
import { failWith } from '../../lib/notify';
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
  // The page lives in `?page=` like every list's (providers/router.ts), so a reload keeps it.
  const table = useTable<AuditRow, HttpError>({ resource: 'audit', errorNotification: failWith(t('audit.error')) });
  return (
    <List title={t('audit.title')} breadcrumb={false} headerButtons={<BooksExportButton />}>
      <ListTable<AuditRow> table={table} locale={{ emptyText: t('audit.empty') }}>
        <Table.Column<AuditRow> key="time" title={t('audit.fields.time')} render={(_, r) => formatDateTime(r.createdAt)} />
        <Table.Column<AuditRow> key="actor" title={t('audit.fields.actor')} render={(_, r) => personName(r.actor)} />
        <Table.Column<AuditRow> key="target" title={t('audit.fields.target')} render={(_, r) => personName(r.target)} />
        <Table.Column<AuditRow> key="action" title={t('audit.fields.action')} render={(_, r) => t(`audit.actions.${r.action}`, r.action)} />
        <Table.Column<AuditRow>
          key="detail"
          title={t('audit.fields.detail')}
          render={(_, r) => <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{auditDetail(r.action, r.details, t)}</Typography.Text>}
        />
      </ListTable>
    </List>
  );
}
