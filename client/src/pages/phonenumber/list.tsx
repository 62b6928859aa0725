import { SyncOutlined } from '@ant-design/icons';
import { Alert, App, Button, Input, Space, Spin, Table, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { Pager } from '../../components/Pager';
import { formatDateTime } from '../../lib/format';
import { api, errorText } from '../../lib/http';
import { usePaged } from '../../lib/usePaged';
import { useLive } from '../../providers/live';
import { applyReceiverEvent, HIGHLIGHT_EVENTS, type PhoneNumberRow } from './live';
import { downloadFromApi } from './transfer';

const NETWORK = 'Network error. Please try again.';

/** 'Daftar Phone Number' (/phonenumber). */
export function PhoneNumberList() {
  const { modal, message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const [typed, setTyped] = useState(search);
  const [synced, setSynced] = useState<number | null>(null);
  const list = usePaged<PhoneNumberRow>('/admin/phonenumber/list-per-page', { search, synced }, 'Error fetching Phone Number list');
  const [deleting, setDeleting] = useState<Set<number>>(new Set());
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

  const sync = () => {
    void message.loading({ content: 'Menyinkronkan data...', key: 'sync', duration: 1 });
    setTimeout(() => setSynced(Date.now()), 1000);
  };

  const exportAs = async (format: 'csv' | 'json') => {
    try {
      await downloadFromApi(`/admin/phonenumber/export?format=${format}`, `phone_numbers.${format}`, 'Error fetching Phone Number list');
    } catch (err) {
      modal.warning({ title: errorText(err, 'Error fetching Phone Number list') });
    }
  };

  const remove = (row: PhoneNumberRow) =>
    modal.confirm({
      title: 'Hapus nomor?',
      content: `Nomor ${row.number} akan dihapus dari daftar.`,
      okText: 'Hapus',
      cancelText: 'Batal',
      okButtonProps: { danger: true },
      onOk: async () => {
        setDeleting((d) => new Set(d).add(row.id));
        try {
          await api(`/admin/phonenumber/${row.id}`, { method: 'DELETE', fallback: NETWORK });
          list.setRows((rows) => rows.filter((r) => r.id !== row.id));
          list.reload();
        } catch (err) {
          modal.error({ title: 'Gagal', content: errorText(err, NETWORK) });
        } finally {
          setDeleting((d) => {
            const next = new Set(d);
            next.delete(row.id);
            return next;
          });
        }
      },
    });

  return (
    <div>
      <PageTitle
        title="Daftar Phone Number"
        extra={
          <>
            <Link to="/phonenumber/create">
              <Button type="primary">Tambah</Button>
            </Link>
            <Button onClick={() => void exportAs('csv')}>Export CSV</Button>
            <Button onClick={() => void exportAs('json')}>Export JSON</Button>
            <Tooltip title="Sinkronkan">
              <Button icon={<SyncOutlined />} onClick={sync} aria-label="sync" />
            </Tooltip>
          </>
        }
      />
      <Input.Search
        allowClear
        placeholder="Cari nomor atau nama"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        style={{ maxWidth: 360, marginBottom: 16 }}
      />
      {list.error && <Alert type="error" showIcon message={list.error} style={{ marginBottom: 16 }} />}
      {capped && <Typography.Paragraph type="secondary">Lebih dari 10.000 nomor cocok; persempit pencarian untuk melihat sisanya.</Typography.Paragraph>}
      <Spin spinning={list.loading}>
        <Table<PhoneNumberRow>
          rowKey="id"
          dataSource={list.rows}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: 'Kosong' }}
          rowClassName={(r) => (flash.has(r.id) ? 'row-flash' : '')}
          columns={[
            {
              title: 'Phone Number',
              key: 'number',
              render: (_, r) => (
                <Space size={4} wrap>
                  <Link to={`/phonenumber/edit?id=${r.id}`}>{r.number}</Link>
                  {r.in_use === 1 && <span>(In Use)</span>}
                  {r.opt_out_reason ? <Tag color="red">opted out: {r.opt_out_reason}</Tag> : r.status !== 'active' && <Tag color="red">{r.status}</Tag>}
                </Space>
              ),
            },
            { title: 'Name', dataIndex: 'name', key: 'name' },
            { title: 'Jumlah Berhasil', key: 'success', render: (_, r) => r.count_success.toLocaleString('id-ID') },
            { title: 'Jumlah Gagal', key: 'fail', render: (_, r) => r.count_fail.toLocaleString('id-ID') },
            { title: 'Terakhir Terkirim', key: 'last', render: (_, r) => formatDateTime(r.last_sent) },
            {
              title: 'Action',
              key: 'action',
              render: (_, r) =>
                deleting.has(r.id) ? (
                  'Deleting...'
                ) : (
                  <Button type="link" danger onClick={() => remove(r)} style={{ padding: 0 }}>
                    Delete
                  </Button>
                ),
            },
          ]}
        />
      </Spin>
      <Pager page={list.page} totalPages={list.totalPages} onChange={list.setPage} />
    </div>
  );
}
