import { PlusOutlined } from '@ant-design/icons';
import { List, useTable } from '@refinedev/antd';
import { useTranslate, type HttpError } from '@refinedev/core';
import { optOutReasonText } from './optOutReason';
import { Button, Input, Typography } from 'antd';
import { useState } from 'react';
import { filterValue, ListTable, useSetFilters } from '../../components/ListTable';
import { failWith } from '../../lib/notify';
import { useSearchButton } from '../../components/SearchFilterBar';
import { formatDateTime } from '../../lib/format';
import { useAddressText } from '../../lib/useAddressText';
import { OptOutAddDialog } from './components/OptOutAddDialog';

export interface OptOutRow {
  id: number;
  number: string;
  reason: string;
  whatsapp: { id: number; pushname: string | null; phonenumber: string | null } | null;
  created_at: string;
}

/** 'Toko Budi (6281…)', or whichever of the two the account has; '-' without an account. */
export function accountText(w: OptOutRow['whatsapp']): string {
  if (!w) return '-';
  if (w.pushname && w.phonenumber) return `${w.pushname} (${w.phonenumber})`;
  return w.pushname || w.phonenumber || '-';
}

/**
 * 'Daftar Nomor Berhenti' (/phonenumber/optout): the suppression list, newest first; search `?search=`,
 * page `?page=`. Numbers are added by hand from here and never removed.
 */
export function OptOutList() {
  const t = useTranslate();
  const searchButton = useSearchButton();
  const table = useTable<OptOutRow, HttpError>({ resource: 'optout', meta: { fallback: t('phonenumber.optout.errors.list') }, errorNotification: failWith(t('phonenumber.optout.errors.list')) });
  const setFilters = useSetFilters(table);
  const search = filterValue(table, 'search');
  const [text, setText] = useAddressText(search);
  const [adding, setAdding] = useState(false);
  const submit = (value: string) => setFilters({ search: value });

  return (
    <List
      title={t('phonenumber.optout.title')}
      breadcrumb={false}
      headerButtons={
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setAdding(true)}>
          {t('phonenumber.optout.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('phonenumber.optout.intro')}</Typography.Paragraph>
      <Input.Search
        allowClear
        placeholder={t('phonenumber.optout.search')}
        aria-label={t('phonenumber.optout.search')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onSearch={submit}
        enterButton={searchButton}
        inputMode="tel"
        style={{ width: 320, maxWidth: '100%', marginBottom: 16 }}
      />
      <ListTable<OptOutRow>
        table={table}
        columns={[
          { title: t('phonenumber.optout.fields.number'), key: 'number', render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{r.number}</span> },
          { title: t('phonenumber.optout.fields.reason'), key: 'reason', render: (_, r) => optOutReasonText(r.reason, t) },
          { title: t('phonenumber.optout.fields.account'), key: 'account', render: (_, r) => accountText(r.whatsapp) },
          { title: t('phonenumber.optout.fields.date'), key: 'date', render: (_, r) => formatDateTime(r.created_at) },
        ]}
      />
      <OptOutAddDialog open={adding} onClose={() => setAdding(false)} onAdded={() => submit('')} />
    </List>
  );
}
