import { useTranslate } from '@refinedev/core';
import { App, Button, Space } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, errorText } from '../lib/http';
import type { PagedList } from '../lib/usePaged';

const NETWORK = 'Network error. Please try again.';

interface Confirm {
  title: string;
  content: string;
}

/**
 * Delete with a confirm ('Hapus' / 'Batal'): the row shows 'Deleting...' until the server answers, then
 * leaves the list and the page is fetched again; a failure shows 'Gagal' with the server's message.
 */
export function useRowDelete<T extends { id: number }>(
  list: Pick<PagedList<T>, 'setRows' | 'reload'>,
  { path, confirm }: { path: (row: T) => string; confirm: (row: T) => Confirm },
) {
  const { modal } = App.useApp();
  const t = useTranslate();
  const [deleting, setDeleting] = useState<Set<number>>(new Set());

  const remove = (row: T) =>
    modal.confirm({
      ...confirm(row),
      okText: t('shared.confirmDelete'),
      cancelText: t('shared.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        setDeleting((d) => new Set(d).add(row.id));
        try {
          await api(path(row), { method: 'DELETE', fallback: NETWORK });
          list.setRows((rows) => rows.filter((r) => r.id !== row.id));
          list.reload();
        } catch (err) {
          modal.error({ title: t('shared.failed'), content: errorText(err, NETWORK) });
        } finally {
          setDeleting((d) => {
            const next = new Set(d);
            next.delete(row.id);
            return next;
          });
        }
      },
    });

  /** The Action cell of `row`. */
  const action = (row: T, editTo?: string) => <DeleteAction deleting={deleting.has(row.id)} onDelete={() => remove(row)} editTo={editTo} />;

  return { action };
}

/** A row's 'Delete' link (after an 'Edit' link when `editTo` is given), or 'Deleting...' while it goes. */
export function DeleteAction({ deleting, onDelete, editTo }: { deleting: boolean; onDelete: () => void; editTo?: string }) {
  const t = useTranslate();
  if (deleting) return t('shared.deleting');
  const button = (
    <Button type="link" danger onClick={onDelete} style={{ padding: 0 }}>
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
