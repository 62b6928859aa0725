import { App, Button, Space, Tag, Typography } from 'antd';
import { useRowDelete } from '../../components/DeleteAction';
import { ListHeader } from '../../components/ListHeader';
import { PagedTable } from '../../components/PagedTable';
import { downloadJson } from '../../lib/download';
import { api, errorText } from '../../lib/http';
import { usePaged } from '../../lib/usePaged';
import { MediaPreview } from './media';
import { BUTTON_LABELS, type MessageButton, type MessageRow } from './model';

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
  const del = useRowDelete(list, {
    path: (r) => `/admin/message/${r.id}`,
    confirm: () => ({ title: 'Hapus template?', content: 'Template pesan ini akan dihapus.' }),
  });

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

  return (
    <div>
      <ListHeader title="Template Pesan Blaster" addTo="/message/create">
        <Button onClick={() => void exportJson()}>Export JSON</Button>
      </ListHeader>
      <PagedTable<MessageRow>
        list={list}
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
          { title: 'Action', key: 'action', render: (_, r) => del.action(r, `/message/edit?id=${r.id}`) },
        ]}
      />
    </div>
  );
}
