import { useTranslate } from '@refinedev/core';
import { Typography } from 'antd';
import { JobList } from './JobList';

/** 'Daftar Generator' at /generator/list. */
export function GeneratorList() {
  const t = useTranslate();
  return (
    <JobList
      kind="generator"
      target={{
        title: t('generator.range'),
        key: 'range',
        render: (_, r) => (
          <div>
            <div>
              {r.start_number} - {r.end_number}
            </div>
            <Typography.Text type="secondary" data-testid="current-number">
              {r.current_number ?? '-'}
            </Typography.Text>
          </div>
        ),
      }}
    />
  );
}
