import { WhatsAppOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Layout } from 'antd';
import type { Role } from '../../../../common/roles';
import { SidebarMenu } from './SidebarMenu';

export const SIDEBAR_EXPANDED = 290;
export const SIDEBAR_COLLAPSED = 90;

export function Brand({ collapsed }: { collapsed: boolean }) {
  const t = useTranslate();
  return (
    <div style={{ height: 64, display: 'flex', alignItems: 'center', justifyContent: 'center', fontWeight: 700, fontSize: 18 }}>
      <WhatsAppOutlined style={{ color: '#25D366', fontSize: 24, marginRight: collapsed ? 0 : 8 }} aria-hidden />
      {!collapsed && <span>{t('common.appName')}</span>}
    </div>
  );
}

/** Desktop and tablet: a sticky sider, 290 px or collapsed to 90 px. */
export function Sidebar({ role, collapsed, dark }: { role: Role; collapsed: boolean; dark: boolean }) {
  const t = useTranslate();
  return (
    <Layout.Sider
      width={SIDEBAR_EXPANDED}
      collapsedWidth={SIDEBAR_COLLAPSED}
      collapsed={collapsed}
      trigger={null}
      theme={dark ? 'dark' : 'light'}
      data-testid="sidebar"
      aria-label={t('layout.sidebar')}
      style={{ height: '100vh', overflowY: 'auto', position: 'sticky', top: 0, alignSelf: 'flex-start', borderRight: '1px solid rgba(5,5,5,0.06)' }}
    >
      <Brand collapsed={collapsed} />
      <SidebarMenu role={role} dark={dark} />
    </Layout.Sider>
  );
}
