import { EditButton } from '@refinedev/antd';
import { useDelete, useTranslate, type BaseKey } from '@refinedev/core';
import { App, Button, Space } from 'antd';
import { useRef, useState } from 'react';
import { doneWith, failWith } from '../lib/notify';
import { focusAfterRowGone, focusRowAction, rowPlace, type RowPlace } from '../lib/rowFocus';
import { PendingText } from './PendingText';

interface Props {
  resource: string;
  id: BaseKey;
  /** The confirm dialog's title and text. */
  title: string;
  content: string;
  /** Refine's EditButton (to the resource's `edit?id=`) before 'Delete'. */
  edit?: boolean;
}

/**
 * A row's 'Delete' (after 'Edit' when `edit` is set) through Refine's `useDelete`: confirmed with
 * 'Hapus' / 'Batal', then 'Deleting...' until the list Refine refetches no longer has the row; a failure
 * shows 'Gagal' with the server's message and the row stays. Keyboard focus goes to the next row's Delete
 * (lib/rowFocus), or back to this one after a failure.
 */
export function RowDelete({ resource, id, title, content, edit }: Props) {
  const t = useTranslate();
  const { modal } = App.useApp();
  const { mutateAsync } = useDelete();
  const [deleting, setDeleting] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const run = async (place: RowPlace | null) => {
    setDeleting(true);
    try {
      await mutateAsync({ resource, id, mutationMode: 'pessimistic', successNotification: doneWith(t('shared.deleted')), errorNotification: failWith(t('shared.network')) });
      focusAfterRowGone(place);
    } catch {
      setDeleting(false);
      focusRowAction(place);
    }
  };

  const confirm = () => {
    const place = rowPlace(buttonRef.current);
    modal.confirm({
      title,
      content,
      okText: t('shared.confirmDelete'),
      cancelText: t('shared.cancel'),
      okButtonProps: { danger: true },
      onOk: () => void run(place),
    });
  };

  if (deleting) return <PendingText>{t('shared.deleting')}</PendingText>;
  const button = (
    <Button ref={buttonRef} type="link" danger onClick={confirm} style={{ padding: 0 }} data-row-action="delete">
      {t('shared.delete')}
    </Button>
  );
  if (!edit) return button;
  return (
    <Space>
      {/* The link is the one keyboard stop: the button inside it is only its look. */}
      <EditButton resource={resource} recordItemId={id} type="link" icon={null} tabIndex={-1} style={{ padding: 0 }}>
        {t('shared.edit')}
      </EditButton>
      {button}
    </Space>
  );
}
