import { useTranslate } from '@refinedev/core';
import { Button, Space, Typography } from 'antd';
import { useEffect, useRef } from 'react';

/**
 * A page past the last one (an old link, `?page=99999`, the last rows deleted meanwhile) moves to the
 * last page once the list has answered for this page and these filters: `key` names them, `answered` is
 * the answer's page count (undefined while it loads) and `answeredAt` when it came, so an answer to the
 * previous address (still on screen for a render after the address changed) is not taken for this one.
 */
export function usePageInRange(page: number, key: string, answered: number | undefined, answeredAt: number, setPage: (page: number) => void): void {
  const since = useRef({ key, at: 0 });
  if (since.current.key !== key) since.current = { key, at: Date.now() };
  useEffect(() => {
    if (answered !== undefined && answeredAt >= since.current.at && answered >= 1 && page > answered) setPage(answered);
  }, [page, answered, answeredAt, setPage]);
}

/** Previous / Next and 'Page X of Y', shown only when there is more than one page. */
export function Pager({ page, totalPages, onChange }: { page: number; totalPages: number; onChange: (page: number) => void }) {
  const t = useTranslate();
  if (totalPages <= 1) return null;
  return (
    <Space style={{ marginTop: 16 }} data-testid="pager">
      <Button disabled={page <= 1} onClick={() => onChange(page - 1)}>
        {t('shared.previous')}
      </Button>
      <Typography.Text>
        {t('shared.pageOf', { page, total: totalPages })}
      </Typography.Text>
      <Button disabled={page >= totalPages} onClick={() => onChange(page + 1)}>
        {t('shared.next')}
      </Button>
    </Space>
  );
}
