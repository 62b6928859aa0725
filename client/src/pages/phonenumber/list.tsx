import { StopOutlined, SyncOutlined } from '@ant-design/icons';
import { List, useTable } from '@refinedev/antd';
import { useTranslate, type HttpError } from '@refinedev/core';
import { optOutReasonText } from './optOutReason';
import { Button, Input, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { AddButton } from '../../components/AddButton';
import { ExportButtons, SyncButton, useSync } from '../../components/ListHeader';
import { filterValue, ListTable, toFilters, useSetFilters } from '../../components/ListTable';
import { RowDelete } from '../../components/RowDelete';
import { useSearchButton } from '../../components/SearchFilterBar';
import { formatCount, formatDateTime } from '../../lib/format';
import { failWith } from '../../lib/notify';
import { useLiveOverlay } from '../../lib/useLiveOverlay';
import { useLive } from '../../providers/live';
import { useRowFlash } from './components/useRowFlash';
import { applyReceiverEvent, HIGHLIGHT_EVENTS, type PhoneNumberRow } from './live';

/** `?line_type=` of the list: the numbering plan's kinds and the re-normalisation's marks. */
const LINE_TYPES = ['', 'mobile', 'fixed_line', 'other', 'invalid', 'duplicate'] as const;

/** `?status=` of the list: what sending left a number with (retries with a policy). */
const SEND_STATES = ['', 'failed', 'retrying'] as const;

/** A search is counted up to this many matches; beyond it the screen asks for a narrower one. */
const SEARCH_CAP = 10_000;

/** 'Daftar Phone Number' (/phonenumber): search `?search=`, 'Jenis Nomor' `?line_type=`, page `?page=`, live rows. */
export function PhoneNumberList() {
  const t = useTranslate();
  const searchButton = useSearchButton();
  const [synced, sync] = useSync();
  const table = useTable<PhoneNumberRow, HttpError>({
    resource: 'phonenumber',
    // A sync stamp asks the server again (the list call's `synced`); it is not part of the address.
    filters: { permanent: toFilters({ synced }) },
    meta: { fallback: t('phonenumber.errors.list') },
    errorNotification: failWith(t('phonenumber.errors.list')),
  });
  const setFilters = useSetFilters(table);
  const search = filterValue(table, 'search');
  const lineType = filterValue(table, 'line_type');
  const sendState = filterValue(table, 'status');
  const [typed, setTyped] = useState(search);
  const { tableQuery } = table;
  // Live values (absolute) over the fetched page until the page is fetched again.
  const [rows, setRows] = useLiveOverlay(tableQuery.data?.data, tableQuery.dataUpdatedAt);
  const rowsNow = useRef(rows);
  rowsNow.current = rows;
  const [flashing, flash] = useRowFlash();
  const capped = Boolean(search) && (tableQuery.data?.total ?? 0) >= SEARCH_CAP;

  useEffect(() => setTyped(search), [search]);

  /** Sets one filter (the address follows) and starts again from page 1. */
  const setFilter = (key: string, value: string) => setFilters({ [key]: value });

  // Search refetches 1 second after typing stops.
  useEffect(() => {
    if (typed.trim() === search) return;
    const timer = setTimeout(() => setFilters({ search: typed }), 1000);
    return () => clearTimeout(timer);
  }, [typed, search, setFilters]);

  useLive('client-admin', (msg) => {
    const id = applyReceiverEvent(rowsNow.current, msg).changedId;
    if (id === null) return;
    setRows((rs) => applyReceiverEvent(rs, msg).rows);
    if (HIGHLIGHT_EVENTS.has(msg.event)) flash(id);
  });

  return (
    <List
      title={t('phonenumber.title')}
      breadcrumb={false}
      headerButtons={
        <>
          <AddButton resource="phonenumber" />
          <ExportButtons path="/admin/phonenumber/export" fileName="phone_numbers" fallback={t('phonenumber.errors.list')} />
          <Link to="/phonenumber/optout">
            <Button icon={<StopOutlined aria-hidden />} tabIndex={-1}>
              {t('phonenumber.optout.open')}
            </Button>
          </Link>
          <SyncButton tooltip={t('phonenumber.sync')} label={t('phonenumber.syncLabel')} icon={<SyncOutlined aria-hidden />} onClick={sync} />
        </>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('phonenumber.search')}
          aria-label={t('phonenumber.search')}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          onSearch={(v) => setFilter('search', v.trim())}
          enterButton={searchButton}
          style={{ width: 360, maxWidth: '100%' }}
        />
        <Select
          aria-label={t('phonenumber.lineType')}
          value={lineType}
          options={LINE_TYPES.map((value) => ({ value, label: t(`phonenumber.lineTypes.${value || 'all'}`) }))}
          style={{ width: 200 }}
          onChange={(v: string) => setFilter('line_type', v)}
        />
        <Select
          aria-label={t('phonenumber.sendState')}
          value={sendState}
          options={SEND_STATES.map((value) => ({ value, label: t(`phonenumber.sendStates.${value || 'all'}`) }))}
          style={{ width: 220 }}
          onChange={(v: string) => setFilter('status', v)}
        />
      </Space>
      {capped && <Typography.Paragraph type="secondary">{t('phonenumber.capped')}</Typography.Paragraph>}
      <ListTable<PhoneNumberRow>
        table={table}
        dataSource={rows}
        rowClassName={(r) => (flashing.has(r.id) ? 'row-flash' : '')}
        columns={[
          {
            title: t('phonenumber.fields.phoneNumber'),
            key: 'number',
            render: (_, r) => (
              <Space size={4} wrap>
                <Link to={`/phonenumber/edit?id=${r.id}`} style={{ whiteSpace: 'nowrap' }}>
                  {r.number}
                </Link>
                {r.in_use === 1 && <span>{t('phonenumber.inUse')}</span>}
                {(r.line_type === 'invalid' || r.line_type === 'duplicate') && <Tag color="orange">{t(`phonenumber.marks.${r.line_type}`)}</Tag>}
                {r.opt_out_reason ? (
                  <Tag color="red">{t('phonenumber.marks.optedOut', { reason: optOutReasonText(r.opt_out_reason, t) })}</Tag>
                ) : r.failed_at ? (
                  <Tag color="red">{t('phonenumber.retry.failed', { code: r.last_error ?? '-', attempts: r.send_attempts ?? 0 })}</Tag>
                ) : (
                  r.status !== 'active' && <Tag color="red">{r.status}</Tag>
                )}
                {!r.failed_at && r.next_attempt_at && (
                  <Tag color="orange">{t('phonenumber.retry.waiting', { at: formatDateTime(r.next_attempt_at), next: (r.send_attempts ?? 0) + 1 })}</Tag>
                )}
              </Space>
            ),
          },
          { title: t('phonenumber.fields.name'), dataIndex: 'name', key: 'name' },
          { title: t('phonenumber.fields.success'), key: 'success', render: (_, r) => formatCount(r.count_success) },
          { title: t('phonenumber.fields.fail'), key: 'fail', render: (_, r) => formatCount(r.count_fail) },
          { title: t('phonenumber.fields.lastSent'), key: 'last', render: (_, r) => formatDateTime(r.last_sent) },
          {
            title: t('shared.action'),
            key: 'action',
            fixed: 'right',
            render: (_, r) => (
              <RowDelete resource="phonenumber" id={r.id} title={t('phonenumber.confirmTitle')} content={t('phonenumber.confirmContent', { number: r.number })} />
            ),
          },
        ]}
      />
    </List>
  );
}
