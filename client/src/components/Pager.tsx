import { useTranslate } from '@refinedev/core';
import { Button, Space, Typography } from 'antd';

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
