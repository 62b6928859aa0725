import { Typography } from 'antd';
import { JobList } from './JobList';

/** 'Daftar Generator' at /generator/list. */
export function GeneratorList() {
  return (
    <JobList
      kind="generator"
      title="Daftar Generator"
      fallback="Error fetching Generator list"
      target={{
        title: 'Range Nomor',
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
