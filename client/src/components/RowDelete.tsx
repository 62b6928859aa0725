import { useDelete, useTranslate, type BaseKey } from '@refinedev/core';
import { App, Button, Space } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorText } from '../lib/http';

interface Props {
  resource: string;
  id: BaseKey;
  /** The confirm dialog's title and text. */
  title: string;
  content: string;
  /** An 'Edit' link before 'Delete'. */
  editTo?: string;
}

/**
 * A row's 'Delete' (after 'Edit' when `editTo` is given) through Refine's `useDelete`: confirmed with
 * 'Hapus' / 'Batal', then 'Deleting...' until the list Refine refetches no longer has the row; a failure
 * shows 'Gagal' with the server's message and the row stays.
 */
export function RowDelete({ resource, id, title, content, editTo }: Props) {
  const t = useTranslate();
  const { modal } = App.useApp();
  const { mutateAsync } = useDelete();
  const [deleting, setDeleting] = useState(false);

  const run = async () => {
    setDeleting(true);
    try {
      await mutateAsync({ resource, id, mutationMode: 'pessimistic', successNotification: false, errorNotification: false });
    } catch (err) {
      setDeleting(false);
      modal.error({ title: t('shared.failed'), content: errorText(err, t('shared.network')) });
    }
  };

  const confirm = () =>
    modal.confirm({
      title,
      content,
      okText: t('shared.confirmDelete'),
      cancelText: t('shared.cancel'),
      okButtonProps: { danger: true },
      onOk: () => void run(),
    });

  if (deleting) return t('shared.deleting');
  const button = (
    <Button type="link" danger onClick={confirm} style={{ padding: 0 }}>
      {t('shared.delete')}
    </Button>
  );
  if (!editTo) return button;
  return (
    <Space>
      <Link to={editTo}>{t('shared.edit')}</Link>
      {button}
    </Space>
  );
}
