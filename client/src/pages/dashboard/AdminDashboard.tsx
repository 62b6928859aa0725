import {
  ApiOutlined,
  CheckCircleOutlined,
  CloseCircleOutlined,
  DisconnectOutlined,
  PhoneOutlined,
  SendOutlined,
  TeamOutlined,
  WhatsAppOutlined,
} from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import type { SessionUser } from '../../lib/session';
import { BlastChart } from './BlastChart';
import { Tile, type TileSpec } from './Tile';
import { formatCount } from '../../lib/format';
import { field, useFigures } from './useFigures';

const TILES: TileSpec[] = [
  { key: 'unusedProxies', label: 'dashboard.admin.unusedProxies', icon: <ApiOutlined aria-hidden />, color: '#722ed1' },
  { key: 'unBlasted', label: 'dashboard.admin.unBlasted', icon: <PhoneOutlined aria-hidden />, color: '#13c2c2' },
  { key: 'connected', label: 'dashboard.admin.connected', icon: <WhatsAppOutlined aria-hidden />, color: '#25D366' },
  { key: 'disconnected', label: 'dashboard.admin.disconnected', icon: <DisconnectOutlined aria-hidden />, color: '#ff4d4f' },
  { key: 'activeMembers', label: 'dashboard.admin.activeMembers', icon: <TeamOutlined aria-hidden />, color: '#1677ff' },
  { key: 'todaySuccess', label: 'dashboard.admin.todaySuccess', icon: <CheckCircleOutlined aria-hidden />, color: '#52c41a' },
  { key: 'todayFail', label: 'dashboard.admin.todayFail', icon: <CloseCircleOutlined aria-hidden />, color: '#fa541c' },
  { key: 'total', label: 'dashboard.admin.total', icon: <SendOutlined aria-hidden />, color: '#128C7E' },
];

/** Admin and dev home: a greeting, the spec's eight system-wide figures, today's outcomes and everyone's blasts per day. */
export function AdminDashboard({ user }: { user: SessionUser }) {
  const { figures, failed } = useFigures(
    `dashboard:admin:${user.id}`,
    [
      { path: '/admin/proxy/count-use', pick: (b) => ({ unusedProxies: field('unUsed')(b) }) },
      { path: '/admin/phonenumber/count-blast', pick: (b) => ({ unBlasted: field('unBlasted')(b) }) },
      { path: '/admin/whatsapp/count/all', pick: (b) => ({ connected: field('connectedCount')(b), disconnected: field('disconnectedCount')(b) }) },
      { path: '/admin/users/active', pick: (b) => ({ activeMembers: field('count')(b) }) },
      { path: '/admin/messagelog/today-count', pick: (b) => ({ todaySuccess: field('success')(b), todayFail: field('fail')(b), todayDelivered: field('delivered')(b), todayRead: field('read')(b) }) },
      { path: '/admin/messagelog/total-count', pick: (b) => ({ totalSuccess: field('success')(b), totalFail: field('fail')(b) }) },
    ],
    'admin',
  );
  const t = useTranslate();

  return (
    <div data-testid="admin-dashboard">
      <Typography.Title level={3} style={{ marginTop: 0 }}>{t('dashboard.greeting', { name: user.firstname })}</Typography.Title>
      <Row gutter={[16, 16]}>
        {TILES.map((tile) =>
          tile.key === 'total' ? (
            <TotalTile key={tile.key} spec={tile} success={figures.totalSuccess} fail={figures.totalFail} failed={failed.has('totalSuccess')} />
          ) : (
            <Tile key={tile.key} spec={tile} value={figures[tile.key]} failed={failed.has(tile.key)} />
          ),
        )}
      </Row>
      <TodayCard figures={figures} failed={failed.has('todaySuccess')} />
      <BlastChart />
    </div>
  );
}

/** Total blasts: success and fail in one tile (its title names both). */
function TotalTile({ spec, success, fail, failed }: { spec: TileSpec; success: number | undefined; fail: number | undefined; failed: boolean }) {
  return (
    <Tile
      spec={spec}
      failed={failed}
      value={fail === undefined ? undefined : success}
      suffix={
        fail === undefined ? undefined : (
          <Typography.Text type="secondary" style={{ fontSize: 16 }} data-testid="total-fail">
            {`\u00a0/\u00a0${formatCount(fail)}`}
          </Typography.Text>
        )
      }
    />
  );
}

/** Today's sends of every account, in the WhatsApp rows' words: sent, delivered, read, failed. */
const TODAY: Array<[string, string]> = [
  ['sent', 'todaySuccess'],
  ['delivered', 'todayDelivered'],
  ['read', 'todayRead'],
  ['failed', 'todayFail'],
];

function TodayCard({ figures, failed }: { figures: Record<string, number>; failed: boolean }) {
  const t = useTranslate();
  const title = t('dashboard.today.title');
  return (
    <Card title={title} style={{ marginTop: 16 }}>
      <Row gutter={[16, 16]} role="group" aria-label={title}>
        {TODAY.map(([word, key]) => {
          const value = figures[key];
          return (
            <Col key={word} xs={12} sm={6} role="group" aria-label={t(`dashboard.today.${word}`)}>
              <Statistic
                title={t(`dashboard.today.${word}`)}
                value={failed ? t('dashboard.figureFailed') : value === undefined ? '…' : formatCount(value)}
                valueStyle={failed ? { fontSize: 16 } : undefined}
              />
            </Col>
          );
        })}
      </Row>
    </Card>
  );
}
