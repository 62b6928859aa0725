import { StopOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { optOutReasonText } from './optOutReason';
import { Button, Input, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ExportButtons, ListHeader, SyncButton, useSync } from '../../components/ListHeader';
import { ListTable, useListTable } from '../../components/ListTable';
import { RowDelete } from '../../components/RowDelete';
import { useSearchButton } from '../../components/SearchFilterBar';
import { formatCount, formatDateTime } from '../../lib/format';
import { useLiveOverlay } from '../../lib/useLiveOverlay';
import { useLive } from '../../providers/live';
import { useRowFlash } from './components/useRowFlash';
import { applyReceiverEvent, HIGHLIGHT_EVENTS, type PhoneNumberRow } from './live';

/** `?line_type=` of the list: the numbering plan's kinds and the re-normalisation's marks. */
const LINE_TYPES = ['', 'mobile', 'fixed_line', 'other', 'invalid', 'duplicate'] as const;

/** A search is counted up to this many matches; beyond it the screen asks for a narrower one. */
const SEARCH_CAP = 10_000;

/** 'Daftar Phone Number' (/phonenumber): search `?search=`, 'Jenis Nomor' `?line_type=`, page `?page=`, live rows. */
export function PhoneNumberList() {
  const t = useTranslate();
  const searchButton = useSearchButton();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const lineType = params.get('line_type') ?? '';
  const [typed, setTyped] = useState(search);
  const [synced, sync] = useSync();
  const list = useListTable<PhoneNumberRow>({
    resource: 'phonenumber',
    params: { search, synced, line_type: lineType },
    fallback: t('phonenumber.errors.list'),
  });
  const { tableQuery } = list;
  // Live values (absolute) over the fetched page until the page is fetched again.
  const [rows, setRows] = useLiveOverlay(tableQuery.data?.data, tableQuery.dataUpdatedAt);
  const rowsNow = useRef(rows);
  rowsNow.current = rows;
  const [flashing, flash] = useRowFlash();
  const capped = Boolean(search) && (tableQuery.data?.total ?? 0) >= SEARCH_CAP;

  useEffect(() => setTyped(search), [search]);

  /** Sets one filter of the address and starts again from page 1. */
  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.set('page', '1');
    setParams(next, { replace: true });
  };

  // Search refetches 1 second after typing stops.
  useEffect(() => {
    if (typed.trim() === search) return;
    const timer = setTimeout(() => {
      const next = new URLSearchParams(params);
      if (typed.trim()) next.set('search', typed.trim());
      else next.delete('search');
      next.set('page', '1');
      setParams(next, { replace: true });
    }, 1000);
    return () => clearTimeout(timer);
  }, [typed, search, params, setParams]);

  useLive('client-admin', (msg) => {
    const id = applyReceiverEvent(rowsNow.current, msg).changedId;
    if (id === null) return;
    setRows((rs) => applyReceiverEvent(rs, msg).rows);
    if (HIGHLIGHT_EVENTS.has(msg.event)) flash(id);
  });

  return (
    <div>
      <ListHeader title={t('phonenumber.title')} addTo="/phonenumber/create">
        <ExportButtons path="/admin/phonenumber/export" fileName="phone_numbers" fallback={t('phonenumber.errors.list')} />
        <Link to="/phonenumber/optout">
          <Button icon={<StopOutlined aria-hidden />}>{t('phonenumber.optout.open')}</Button>
        </Link>
        <SyncButton tooltip={t('phonenumber.sync')} label={t('phonenumber.syncLabel')} icon={<SyncOutlined aria-hidden />} onClick={sync} />
      </ListHeader>
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
      </Space>
      <ListTable<PhoneNumberRow>
        list={list}
        dataSource={rows}
        notice={capped && <Typography.Paragraph type="secondary">{t('phonenumber.capped')}</Typography.Paragraph>}
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
                {r.opt_out_reason ? <Tag color="red">{t('phonenumber.marks.optedOut', { reason: optOutReasonText(r.opt_out_reason, t) })}</Tag> : r.status !== 'active' && <Tag color="red">{r.status}</Tag>}
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
            render: (_, r) => (
              <RowDelete resource="phonenumber" id={r.id} title={t('phonenumber.confirmTitle')} content={t('phonenumber.confirmContent', { number: r.number })} />
            ),
          },
        ]}
      />
    </div>
  );
}
