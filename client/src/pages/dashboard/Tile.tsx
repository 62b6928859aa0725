import { useTranslate } from '@refinedev/core';
import { Card, Col, Skeleton, Statistic } from 'antd';
import type { ReactNode } from 'react';
import { formatRupiah } from '../../lib/format';

export interface TileSpec {
  key: string;
  /** The tile's title, a locale key (`dashboard.admin.*`, `dashboard.member.*`). */
  label: string;
  icon: ReactNode;
  color: string;
  money?: boolean;
}

/** One dashboard figure; while it is not known yet (`undefined`) the tile shows that it is loading. */
export function Tile({ spec, value, suffix }: { spec: TileSpec; value: number | undefined; suffix?: ReactNode }) {
  const t = useTranslate();
  return (
    <Col xs={24} sm={12} lg={6}>
      <Card data-testid={`tile-${spec.key}`} aria-busy={value === undefined}>
        <Statistic
          title={t(spec.label)}
          value={value === undefined ? '' : spec.money ? formatRupiah(value) : value.toLocaleString('id-ID')}
          // A placeholder in the value's own line, so the tile keeps its height when the figure arrives.
          valueRender={(node) => (value === undefined ? <Skeleton.Input active size="small" style={{ verticalAlign: 'middle' }} /> : node)}
          prefix={<span style={{ color: spec.color, marginRight: 8 }}>{spec.icon}</span>}
          suffix={suffix}
        />
      </Card>
    </Col>
  );
}
