import { SyncOutlined } from '@ant-design/icons';
import { Input, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useRowDelete } from '../../components/DeleteAction';
import { ExportButtons, ListHeader, SyncButton, useSync } from '../../components/ListHeader';
import { PagedTable } from '../../components/PagedTable';
import { formatCount, formatDateTime } from '../../lib/format';
import { usePaged } from '../../lib/usePaged';
import { useLive } from '../../providers/live';
import { applyReceiverEvent, HIGHLIGHT_EVENTS, type PhoneNumberRow } from './live';

/** `?line_type=` of the list: the numbering plan's kinds and the re-normalisation's marks. */
const LINE_TYPES = [
  { value: '', label: 'Semua jenis nomor' },
  { value: 'mobile', label: 'Seluler' },
  { value: 'fixed_line', label: 'Telepon tetap' },
  { value: 'other', label: 'Lainnya' },
  { value: 'invalid', label: 'Tidak valid' },
  { value: 'duplicate', label: 'Duplikat' },
];

/** 'Daftar Phone Number' (/phonenumber). */
export function PhoneNumberList() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const lineType = params.get('line_type') ?? '';
  const [typed, setTyped] = useState(search);
  const [synced, sync] = useSync();
  const list = usePaged<PhoneNumberRow>('/admin/phonenumber/list-per-page', { search, synced, line_type: lineType || undefined }, 'Error fetching Phone Number list');
  const del = useRowDelete(list, {
    path: (r) => `/admin/phonenumber/${r.id}`,
    confirm: (r) => ({ title: 'Hapus nomor?', content: `Nomor ${r.number} akan dihapus dari daftar.` }),
  });
  const [flash, setFlash] = useState<Set<number>>(new Set());
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const rowsNow = useRef(list.rows);
  rowsNow.current = list.rows;
  const capped = Boolean(search) && list.total >= 10_000;

  useEffect(() => () => timers.current.forEach((t) => clearTimeout(t)), []);
  useEffect(() => setTyped(search), [search]);

  // Search refetches 1 second after typing stops.
  useEffect(() => {
    if (typed === search) return;
    const t = setTimeout(() => {
      const next = new URLSearchParams(params);
      if (typed.trim()) next.set('search', typed.trim());
      else next.delete('search');
      next.delete('page');
      setParams(next, { replace: true });
    }, 1000);
    return () => clearTimeout(t);
  }, [typed, search, params, setParams]);

  useLive('client-admin', (msg) => {
    const id = applyReceiverEvent(rowsNow.current, msg).changedId;
    if (id === null) return;
    list.setRows((rows) => applyReceiverEvent(rows, msg).rows);
    if (!HIGHLIGHT_EVENTS.has(msg.event)) return;
    setFlash((f) => new Set(f).add(id));
    clearTimeout(timers.current.get(id));
    timers.current.set(
      id,
      setTimeout(() => {
        setFlash((f) => {
          const next = new Set(f);
          next.delete(id);
          return next;
        });
        timers.current.delete(id);
      }, 1000),
    );
  });

  return (
    <div>
      <ListHeader title="Daftar Phone Number" addTo="/phonenumber/create">
        <ExportButtons path="/admin/phonenumber/export" fileName="phone_numbers" fallback="Error fetching Phone Number list" />
        <SyncButton tooltip="Sinkronkan" label="sync" icon={<SyncOutlined />} onClick={sync} />
      </ListHeader>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search allowClear placeholder="Cari nomor atau nama" value={typed} onChange={(e) => setTyped(e.target.value)} style={{ width: 360, maxWidth: '100%' }} />
        <Select
          aria-label="Jenis Nomor"
          value={lineType}
          options={LINE_TYPES}
          style={{ width: 200 }}
          onChange={(v: string) => {
            const next = new URLSearchParams(params);
            if (v) next.set('line_type', v);
            else next.delete('line_type');
            next.delete('page');
            setParams(next, { replace: true });
          }}
        />
      </Space>
      <PagedTable<PhoneNumberRow>
        list={list}
        notice={capped && <Typography.Paragraph type="secondary">Lebih dari 10.000 nomor cocok; persempit pencarian untuk melihat sisanya.</Typography.Paragraph>}
        rowClassName={(r) => (flash.has(r.id) ? 'row-flash' : '')}
        columns={[
          {
            title: 'Phone Number',
            key: 'number',
            render: (_, r) => (
              <Space size={4} wrap>
                <Link to={`/phonenumber/edit?id=${r.id}`}>{r.number}</Link>
                {r.in_use === 1 && <span>(In Use)</span>}
                {(r.line_type === 'invalid' || r.line_type === 'duplicate') && <Tag color="orange">{r.line_type === 'invalid' ? 'tidak valid' : 'duplikat'}</Tag>}
                {r.opt_out_reason ? <Tag color="red">opted out: {r.opt_out_reason}</Tag> : r.status !== 'active' && <Tag color="red">{r.status}</Tag>}
              </Space>
            ),
          },
          { title: 'Name', dataIndex: 'name', key: 'name' },
          { title: 'Jumlah Berhasil', key: 'success', render: (_, r) => formatCount(r.count_success) },
          { title: 'Jumlah Gagal', key: 'fail', render: (_, r) => formatCount(r.count_fail) },
          { title: 'Terakhir Terkirim', key: 'last', render: (_, r) => formatDateTime(r.last_sent) },
          { title: 'Action', key: 'action', render: (_, r) => del.action(r) },
        ]}
      />
    </div>
  );
}
