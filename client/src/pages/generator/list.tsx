import { useTranslate } from '@refinedev/core';
import { Typography } from 'antd';
import { JobList } from './JobList';

/** Numbers never break mid-number. */
const WHOLE = { whiteSpace: 'nowrap' } as const;

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
              <span style={WHOLE}>{r.start_number}</span> - <span style={WHOLE}>{r.end_number}</span>
            </div>
            <Typography.Text type="secondary" data-testid="current-number" style={WHOLE}>
              {r.current_number ?? '-'}
            </Typography.Text>
          </div>
        ),
      }}
    />
  );
}
