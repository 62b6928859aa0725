import { Alert, App, Button, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { Pager } from '../../components/Pager';
import { downloadJson } from '../../lib/download';
import { api, errorText } from '../../lib/http';
import { usePaged } from '../../lib/usePaged';
import { MediaPreview } from './media';
import { BUTTON_LABELS, type MessageButton, type MessageRow } from './model';

const NETWORK = 'Network error. Please try again.';

function ButtonLink({ b }: { b: MessageButton }) {
  const label = `${b.title} (${BUTTON_LABELS[b.type] ?? b.type})`;
  if (b.type === 'url_button' && /^https?:\/\//i.test(b.url)) {
    return (
      <Typography.Link href={b.url} target="_blank" rel="noopener noreferrer">
        {label}
      </Typography.Link>
    );
  }
  if (b.type === 'call_button') return <Typography.Link href={`tel:${b.url}`}>{label}</Typography.Link>;
  return <Typography.Link title={b.url}>{label}</Typography.Link>;
}

/** 'Template Pesan Blaster' (/message). The caption HTML was sanitised by the server when saved. */
export function MessageList() {
  const { modal } = App.useApp();
  const list = usePaged<MessageRow>('/admin/message/list-per-page', {}, 'Internal server error');
  const [deleting, setDeleting] = useState<Set<number>>(new Set());

  const exportJson = async () => {
    try {
      const { list: all } = await api<{ list: MessageRow[] }>('/admin/message/list');
      if (!all?.length) {
        modal.warning({ title: 'No messages to export.' });
        return;
      }
      downloadJson(all, 'messages.json');
    } catch (err) {
      modal.error({ title: 'Gagal', content: errorText(err) });
    }
  };

  const remove = (row: MessageRow) =>
    modal.confirm({
      title: 'Hapus template?',
      content: 'Template pesan ini akan dihapus.',
      okText: 'Hapus',
      cancelText: 'Batal',
      okButtonProps: { danger: true },
      onOk: async () => {
        setDeleting((d) => new Set(d).add(row.id));
        try {
          await api(`/admin/message/${row.id}`, { method: 'DELETE', fallback: NETWORK });
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
        title="Template Pesan Blaster"
        extra={
          <>
            <Link to="/message/create">
              <Button type="primary">Tambah</Button>
            </Link>
            <Button onClick={() => void exportJson()}>Export JSON</Button>
          </>
        }
      />
      {list.error && <Alert type="error" showIcon message={list.error} style={{ marginBottom: 16 }} />}
      <Spin spinning={list.loading}>
        <Table<MessageRow>
          rowKey="id"
          dataSource={list.rows}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: 'Kosong' }}
          columns={[
            { title: 'Media', key: 'media', render: (_, r) => <MediaPreview media={r.media} /> },
            { title: 'Caption', key: 'caption', render: (_, r) => <div className="caption-html" style={{ maxWidth: 420 }} dangerouslySetInnerHTML={{ __html: r.text }} /> },
            {
              title: 'Button',
              key: 'button',
              render: (_, r) =>
                r.button.length ? (
                  <Space direction="vertical" size={2}>
                    {r.button.map((b) => (
                      <ButtonLink key={b.id} b={b} />
                    ))}
                  </Space>
                ) : (
                  '-'
                ),
            },
            { title: 'Digunakan', key: 'use', render: (_, r) => `${r.count_use} kali` },
            { title: 'Status', key: 'status', render: (_, r) => <Tag color={r.status === 'active' ? 'green' : 'red'}>{r.status}</Tag> },
            {
              title: 'Action',
              key: 'action',
              render: (_, r) =>
                deleting.has(r.id) ? (
                  'Deleting...'
                ) : (
                  <Space>
                    <Link to={`/message/edit?id=${r.id}`}>Edit</Link>
                    <Button type="link" danger onClick={() => remove(r)} style={{ padding: 0 }}>
                      Delete
                    </Button>
                  </Space>
                ),
            },
          ]}
        />
      </Spin>
      <Pager page={list.page} totalPages={list.totalPages} onChange={list.setPage} />
    </div>
  );
}
