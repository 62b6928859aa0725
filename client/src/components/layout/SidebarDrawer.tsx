import { useTranslate } from '@refinedev/core';
import { Drawer } from 'antd';
import type { Role } from '../../../../common/roles';
import { Brand, SIDEBAR_EXPANDED } from './Sidebar';
import { SidebarMenu } from './SidebarMenu';

/**
 * Phones: the same menu in an overlay drawer; closed, it takes no width. Choosing an entry closes it.
 * Its own module, loaded only on phones, so desktop screens do not download the drawer.
 */
export function SidebarDrawer({ role, open, dark, onClose }: { role: Role; open: boolean; dark: boolean; onClose: () => void }) {
  const t = useTranslate();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="left"
      width={Math.min(SIDEBAR_EXPANDED, window.innerWidth - 40)}
      closable={false}
      title={null}
      styles={{ body: { padding: 0, background: dark ? '#001529' : undefined } }}
      aria-label={t('layout.sidebar')}
      data-testid="sidebar-drawer"
    >
      <div data-testid="sidebar">
        <Brand collapsed={false} />
        <SidebarMenu role={role} dark={dark} onNavigate={onClose} />
      </div>
    </Drawer>
  );
}
