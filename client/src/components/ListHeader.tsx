import { useTranslate } from '@refinedev/core';
import { App, Button, Tooltip } from 'antd';
import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { errorText } from '../lib/http';
import { PageTitle } from './PageTitle';

/** A list's title with its 'Tambah' link (left out when `addTo` is not given) and any further buttons. */
export function ListHeader({ title, addTo, addLabel, children }: { title: React.ReactNode; addTo?: string | false; addLabel?: string; children?: React.ReactNode }) {
  const t = useTranslate();
  const add = addTo ? (
    <Link to={addTo}>
      <Button type="primary">{addLabel ?? t('shared.add')}</Button>
    </Link>
  ) : null;
  return (
    <PageTitle
      title={title}
      extra={
        add || children ? (
          <>
            {add}
            {children}
          </>
        ) : undefined
      }
    />
  );
}

/**
 * 'Menyinkronkan data...' for a second, then a new `synced` stamp: pass it among a list's params so the
 * list fetches again.
 */
export function useSync(): [number | null, () => void] {
  const { message } = App.useApp();
  const t = useTranslate();
  const [synced, setSynced] = useState<number | null>(null);
  const sync = useCallback(() => {
    void message.loading({ content: t('shared.syncing'), key: 'sync', duration: 1 });
    setTimeout(() => setSynced(Date.now()), 1000);
  }, [message, t]);
  return [synced, sync];
}

/** An icon button with a tooltip, for a list's sync / refresh. */
export function SyncButton({ tooltip, label, icon, onClick }: { tooltip: string; label: string; icon: React.ReactNode; onClick: () => void }) {
  return (
    <Tooltip title={tooltip}>
      <Button icon={icon} onClick={onClick} aria-label={label} />
    </Tooltip>
  );
}

/** 'Export CSV' / 'Export JSON' of a file the server streams from `path?format=`; a failure shows as a warning. */
export function ExportButtons({ path, fileName, fallback }: { path: string; fileName: string; fallback: string }) {
  const { modal } = App.useApp();
  const t = useTranslate();
  const exportAs = async (format: 'csv' | 'json') => {
    try {
      // The download code loads with the first export, not with the list.
      const { downloadFromApi } = await import('../lib/transfer');
      await downloadFromApi(`${path}?format=${format}`, `${fileName}.${format}`, fallback);
    } catch (err) {
      modal.warning({ title: errorText(err, fallback) });
    }
  };
  return (
    <>
      <Button onClick={() => void exportAs('csv')}>{t('shared.exportCsv')}</Button>
      <Button onClick={() => void exportAs('json')}>{t('shared.exportJson')}</Button>
    </>
  );
}
