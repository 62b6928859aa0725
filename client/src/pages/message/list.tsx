import { List, useTable } from '@refinedev/antd';
import { useCustom, useTranslate, type HttpError } from '@refinedev/core';
import { App, Button, Space, Tag, Typography } from 'antd';
import { AddButton } from '../../components/AddButton';
import { ListTable } from '../../components/ListTable';
import { RowDelete } from '../../components/RowDelete';
import { failWith } from '../../lib/notify';
import { MediaPreview } from './media';
import { buttonTypeKey, type MessageButton, type MessageRow } from './model';

function ButtonLink({ b }: { b: MessageButton }) {
  const t = useTranslate();
  const label = `${b.title} (${t(buttonTypeKey(b.type), b.type)})`;
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
  const t = useTranslate();
  const { modal } = App.useApp();
  const table = useTable<MessageRow, HttpError>({ resource: 'message', meta: { fallback: t('message.errors.list') }, errorNotification: failWith(t('message.errors.list')) });
  // Every template for 'Export JSON', read only when asked for; a failure is told by the notification provider.
  const all = useCustom<{ list: MessageRow[] }>({ url: '/admin/message/list', method: 'get', queryOptions: { enabled: false }, errorNotification: failWith(t('message.errors.list')) });

  const exportJson = async () => {
    const res = await all.query.refetch();
    if (res.error) return;
    const rows = res.data?.data.list ?? [];
    if (!rows.length) {
      modal.warning({ title: t('message.noExport') });
      return;
    }
    // The download code loads with the first export, not with the list.
    (await import('../../lib/download')).downloadJson(rows, 'messages.json');
  };

  return (
    <List
      title={t('message.title')}
      breadcrumb={false}
      headerButtons={
        <>
          <AddButton resource="message" />
          <Button onClick={() => void exportJson()}>{t('shared.exportJson')}</Button>
        </>
      }
    >
      <ListTable<MessageRow>
        table={table}
        columns={[
          { title: t('message.fields.media'), key: 'media', render: (_, r) => <MediaPreview media={r.media} /> },
          { title: t('message.fields.caption'), key: 'caption', render: (_, r) => <div className="caption-html" style={{ maxWidth: 420, minWidth: 240 }} dangerouslySetInnerHTML={{ __html: r.text }} /> },
          {
            title: t('message.fields.button'),
            key: 'button',
            render: (_, r) =>
              r.button.length ? (
                // On a phone the table scrolls sideways: a button's title keeps its words whole.
                <Space direction="vertical" size={2} style={{ minWidth: 160 }}>
                  {r.button.map((b) => (
                    <ButtonLink key={b.id} b={b} />
                  ))}
                </Space>
              ) : (
                '-'
              ),
          },
          { title: t('message.fields.used'), key: 'use', render: (_, r) => t('shared.usedTimes', { count: r.count_use }) },
          { title: t('message.fields.status'), key: 'status', render: (_, r) => <Tag color={r.status === 'active' ? 'green' : 'red'}>{r.status}</Tag> },
          {
            title: t('shared.action'),
            key: 'action',
            fixed: 'right',
            render: (_, r) => <RowDelete resource="message" id={r.id} edit title={t('message.confirmTitle')} content={t('message.confirmContent')} />,
          },
        ]}
      />
    </List>
  );
}
