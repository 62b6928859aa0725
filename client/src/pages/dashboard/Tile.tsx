import { useTranslate } from '@refinedev/core';
import { ExclamationCircleOutlined } from '@ant-design/icons';
import { Card, Col, Skeleton, Statistic, Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatCount, formatRupiah } from '../../lib/format';

export interface TileSpec {
  key: string;
  /** The tile's title, a locale key (`dashboard.admin.*`, `dashboard.member.*`). */
  label: string;
  icon: ReactNode;
  color: string;
  money?: boolean;
}

/**
 * One dashboard figure; while it is not known yet (`undefined`) the tile shows that it is loading, and
 * when its call failed (`failed`) it says so rather than showing a 0.
 */
export function Tile({ spec, value, failed, suffix }: { spec: TileSpec; value: number | undefined; failed?: boolean; suffix?: ReactNode }) {
  const t = useTranslate();
  const shown = failed ? undefined : value;
  return (
    <Col xs={24} sm={12} lg={6}>
      <Card data-testid={`tile-${spec.key}`} aria-busy={!failed && value === undefined}>
        <Statistic
          title={t(spec.label)}
          value={shown === undefined ? '' : spec.money ? formatRupiah(shown) : formatCount(shown)}
          // A placeholder in the value's own line, so the tile keeps its height when the figure arrives.
          valueRender={(node) =>
            failed ? (
              <Typography.Text type="danger" style={{ fontSize: 16 }} data-testid="figure-failed">
                <ExclamationCircleOutlined aria-hidden /> {t('dashboard.figureFailed')}
              </Typography.Text>
            ) : shown === undefined ? (
              <Skeleton.Input active size="small" style={{ verticalAlign: 'middle' }} />
            ) : (
              node
            )
          }
          prefix={<span style={{ color: spec.color, marginRight: 8 }}>{spec.icon}</span>}
          suffix={failed ? undefined : suffix}
        />
      </Card>
    </Col>
  );
}
