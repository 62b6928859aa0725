import { CheckCircleOutlined, CloseCircleOutlined, DisconnectOutlined, GiftOutlined, WalletOutlined, WhatsAppOutlined, DollarOutlined } from '@ant-design/icons';
import { useCustom, useTranslate } from '@refinedev/core';
import { Alert, Row, Typography } from 'antd';
import type { SessionUser } from '../../lib/session';
import { BlastChart } from './BlastChart';
import { Tile, type TileSpec } from './Tile';
import { field, useFigures } from './useFigures';

const TILES: TileSpec[] = [
  { key: 'connected', label: 'dashboard.member.connected', icon: <WhatsAppOutlined aria-hidden />, color: '#25D366' },
  { key: 'disconnected', label: 'dashboard.member.disconnected', icon: <DisconnectOutlined aria-hidden />, color: '#ff4d4f' },
  { key: 'success', label: 'dashboard.member.success', icon: <CheckCircleOutlined aria-hidden />, color: '#52c41a' },
  { key: 'fail', label: 'dashboard.member.fail', icon: <CloseCircleOutlined aria-hidden />, color: '#fa541c' },
  { key: 'income', label: 'dashboard.member.income', icon: <DollarOutlined aria-hidden />, color: '#128C7E', money: true },
  { key: 'balance', label: 'dashboard.member.balance', icon: <WalletOutlined aria-hidden />, color: '#1677ff', money: true },
  { key: 'bonus', label: 'dashboard.member.bonus', icon: <GiftOutlined aria-hidden />, color: '#faad14', money: true },
];

/** Two copies of the text scroll by half their width, so the loop has no gap and starts visible. */
const MARQUEE_CSS = `
@keyframes blast-marquee { from { transform: translateX(0); } to { transform: translateX(-50%); } }
.blast-marquee { overflow: hidden; white-space: nowrap; }
.blast-marquee > div { display: inline-block; animation: blast-marquee 30s linear infinite; }
.blast-marquee span { display: inline-block; padding-right: 6rem; }
@media (prefers-reduced-motion: reduce) { .blast-marquee > div { animation: none; } }
`;

/** The member's home: the admin's info banner (none when Info is empty), a greeting, seven figures and their blasts per day. */
export function MemberDashboard({ user }: { user: SessionUser }) {
  const t = useTranslate();
  // The same read as the member form's bank names: the settings' Info text, none when it fails.
  const settings = useCustom<{ setting?: { info?: string } }>({ url: '/admin/setting/get', method: 'get', errorNotification: false });
  const info = settings.query.isError ? '' : (settings.result.data?.setting?.info ?? '').trim();
  const id = user.id;
  const { figures, failed } = useFigures(
    `dashboard:member:${id}`,
    [
      { path: `/admin/whatsapp/count/${id}`, pick: (b) => ({ connected: field('connectedCount')(b), disconnected: field('disconnectedCount')(b) }) },
      { path: `/admin/messagelog/count/${id}`, pick: (b) => ({ success: field('successCount')(b), fail: field('failCount')(b) }) },
      { path: `/admin/messagelog/today-income/${id}`, pick: (b) => ({ income: field('income')(b) }) },
      { path: `/admin/withdraw/balance/${id}`, pick: (b) => ({ balance: field('balance')(b) }) },
      { path: `/admin/bonus/total/${id}`, pick: (b) => ({ bonus: field('totalBonus')(b) }) },
    ],
    String(id),
  );

  return (
    <div data-testid="member-dashboard">
      <style>{MARQUEE_CSS}</style>
      {info && (
        <Alert
          type="info"
          style={{ marginBottom: 16 }}
          message={
            <div className="blast-marquee" data-testid="info-banner">
              <div>
                <span>{info}</span>
                <span aria-hidden="true">{info}</span>
              </div>
            </div>
          }
        />
      )}
      <Typography.Title level={3} style={{ marginTop: 0 }}>{t('dashboard.greeting', { name: user.firstname })}</Typography.Title>
      <Row gutter={[16, 16]}>
        {TILES.map((tile) => (
          <Tile key={tile.key} spec={tile} value={figures[tile.key]} failed={failed.has(tile.key)} />
        ))}
      </Row>
      <BlastChart userId={id} />
    </div>
  );
}
