import { FileTextOutlined, SendOutlined } from '@ant-design/icons';
import { CanAccess, useMenu, useTranslate, type TreeMenuItem } from '@refinedev/core';
import { Menu } from 'antd';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { menuFor, type MenuItem, type Role } from '../../../../common/roles';
import { useClientConfig } from '../../lib/config';

/** The menu entry that owns a path: the longest menu path the current path starts with. */
export function activeKey(pathname: string, paths: string[]): string {
  if (pathname === '/' || pathname === '/dashboard') return '/';
  let best = '';
  for (const p of paths) {
    if (p !== '/' && (pathname === p || pathname.startsWith(`${p}/`)) && p.length > best.length) best = p;
  }
  return best;
}

export interface SidebarEntry {
  key: string;
  path: string;
  label: string;
  external: boolean;
  resource?: TreeMenuItem;
}

/**
 * The role's entries in the spec's order (common/roles.ts, the one table), each drawn from the Refine
 * resource whose list is that path: its translated label and icon.
 */
export function useSidebarEntries(role: Role): SidebarEntry[] {
  const { telegramUrl } = useClientConfig();
  const { menuItems } = useMenu();
  const t = useTranslate();
  const byPath = new Map(menuItems.map((item) => [item.route ?? '', item]));
  return menuFor(role, telegramUrl).map((m: MenuItem) => {
    if (m.external) return { key: `ext:${m.path}`, path: m.path, label: t('layout.menu.telegram', m.label), external: true };
    const resource = byPath.get(m.path);
    return { key: m.path, path: m.path, label: resource?.label ?? m.label, external: false, resource };
  });
}

/** The sidebar's menu; every entry is shown only when the access-control provider allows its list. */
export function SidebarMenu({ role, dark, onNavigate }: { role: Role; dark: boolean; onNavigate?: () => void }) {
  const location = useLocation();
  const entries = useSidebarEntries(role);
  // One submenu open at a time; choosing the open one closes it.
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  return (
    <Menu
      mode="inline"
      theme={dark ? 'dark' : 'light'}
      selectedKeys={[activeKey(location.pathname, entries.map((e) => e.path))]}
      openKeys={openKeys}
      onOpenChange={(keys) => setOpenKeys(keys.length ? [keys[keys.length - 1]!] : [])}
      onClick={() => onNavigate?.()}
      data-testid="sidebar-menu"
      style={{ borderInlineEnd: 'none' }}
    >
      {entries.map((e) =>
        e.external ? (
          <Menu.Item key={e.key} icon={<SendOutlined aria-hidden />}>
            <a href={e.path} target="_blank" rel="noreferrer">
              {e.label}
            </a>
          </Menu.Item>
        ) : (
          <CanAccess key={e.key} resource={e.resource?.name ?? e.path} action="list" params={{ path: e.path }}>
            <Menu.Item key={e.key} icon={e.resource?.icon ?? <FileTextOutlined aria-hidden />}>
              <Link to={e.path}>{e.label}</Link>
            </Menu.Item>
          </CanAccess>
        ),
      )}
    </Menu>
  );
}
