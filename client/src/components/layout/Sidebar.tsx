import { Layout, Menu } from 'antd';
import {
  AppstoreOutlined,
  DashboardOutlined,
  DollarOutlined,
  FileTextOutlined,
  GiftOutlined,
  GlobalOutlined,
  MessageOutlined,
  PhoneOutlined,
  SendOutlined,
  SettingOutlined,
  TeamOutlined,
  UserOutlined,
  WhatsAppOutlined,
  CheckCircleOutlined,
  ShareAltOutlined,
  TrophyOutlined,
} from '@ant-design/icons';
import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { menuFor, type Role } from '../../../../common/roles';
import { useClientConfig } from '../../lib/config';

export const SIDEBAR_EXPANDED = 290;
export const SIDEBAR_COLLAPSED = 90;

const ICONS: Record<string, ReactNode> = {
  '/': <DashboardOutlined />,
  '/phonenumber': <PhoneOutlined />,
  '/member': <TeamOutlined />,
  '/generator/list': <AppstoreOutlined />,
  '/validator/list': <CheckCircleOutlined />,
  '/message': <MessageOutlined />,
  '/withdraw/requested': <DollarOutlined />,
  '/withdraw': <DollarOutlined />,
  '/bonus': <GiftOutlined />,
  '/referral': <ShareAltOutlined />,
  '/level': <TrophyOutlined />,
  '/proxy': <GlobalOutlined />,
  '/settings': <SettingOutlined />,
  '/profile': <UserOutlined />,
  '/whatsapp': <WhatsAppOutlined />,
};

/** The menu entry that owns a path: the longest menu path the current path starts with. */
function activeKey(pathname: string, paths: string[]): string {
  if (pathname === '/' || pathname === '/dashboard') return '/';
  let best = '';
  for (const p of paths) {
    if (p !== '/' && (pathname === p || pathname.startsWith(`${p}/`)) && p.length > best.length) best = p;
  }
  return best;
}

export function Sidebar({ role, collapsed, dark }: { role: Role; collapsed: boolean; dark: boolean }) {
  const { telegramUrl } = useClientConfig();
  const location = useLocation();
  const entries = menuFor(role, telegramUrl);
  // One submenu open at a time; choosing the open one closes it.
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  const items = entries.map((m) => ({
    key: m.external ? `ext:${m.path}` : m.path,
    icon: m.external ? <SendOutlined /> : (ICONS[m.path] ?? <FileTextOutlined />),
    label: m.external ? (
      <a href={m.path} target="_blank" rel="noreferrer">
        {m.label}
      </a>
    ) : (
      <Link to={m.path}>{m.label}</Link>
    ),
  }));
  return (
    <Layout.Sider
      width={SIDEBAR_EXPANDED}
      collapsedWidth={SIDEBAR_COLLAPSED}
      collapsed={collapsed}
      trigger={null}
      theme={dark ? 'dark' : 'light'}
      data-testid="sidebar"
      style={{ minHeight: '100vh', position: 'sticky', top: 0, alignSelf: 'flex-start', borderRight: '1px solid rgba(5,5,5,0.06)' }}
    >
      <div style={{ height: 64, display: 'flex', alignItems: 'center', justifyContent: 'center', fontWeight: 700, fontSize: 18 }}>
        <WhatsAppOutlined style={{ color: '#25D366', fontSize: 24, marginRight: collapsed ? 0 : 8 }} />
        {!collapsed && <span>Blast Console</span>}
      </div>
      <Menu
        mode="inline"
        theme={dark ? 'dark' : 'light'}
        selectedKeys={[activeKey(location.pathname, entries.map((e) => e.path))]}
        openKeys={openKeys}
        onOpenChange={(keys) => setOpenKeys(keys.length ? [keys[keys.length - 1]!] : [])}
        items={items}
        data-testid="sidebar-menu"
      />
    </Layout.Sider>
  );
}
