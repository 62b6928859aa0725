import { Card, Col, Statistic } from 'antd';
import type { ReactNode } from 'react';
import { formatRupiah } from '../../lib/format';

export interface TileSpec {
  key: string;
  label: string;
  icon: ReactNode;
  color: string;
  money?: boolean;
}

/** One dashboard figure. */
export function Tile({ spec, value, suffix }: { spec: TileSpec; value: number; suffix?: ReactNode }) {
  return (
    <Col xs={24} sm={12} lg={6}>
      <Card data-testid={`tile-${spec.key}`}>
        <Statistic
          title={spec.label}
          value={spec.money ? formatRupiah(value) : value.toLocaleString('id-ID')}
          prefix={<span style={{ color: spec.color, marginRight: 8 }}>{spec.icon}</span>}
          suffix={suffix}
        />
      </Card>
    </Col>
  );
}
