import { Layout } from 'antd';
import { useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import type { SessionUser } from '../../lib/session';
import { MOBILE_BREAKPOINT, useViewportWidth } from '../../lib/useViewport';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { useTheme } from './theme';

/** Sidebar, top bar and content. Under 768 px the sidebar is forced collapsed. */
export function AppLayout({ user }: { user: SessionUser }) {
  const width = useViewportWidth();
  const mobile = width < MOBILE_BREAKPOINT;
  const [expanded, setExpanded] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);
  const { theme } = useTheme();

  useEffect(() => {
    if (mobile) setExpanded(false);
    else setMobileOpen(false);
  }, [mobile]);

  const collapsed = mobile ? !mobileOpen : !expanded;
  const toggle = () => (mobile ? setMobileOpen((o) => !o) : setExpanded((e) => !e));

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Sidebar role={user.role} collapsed={collapsed} dark={theme === 'dark'} />
      <Layout>
        <TopBar user={user} collapsed={collapsed} onToggle={toggle} />
        <Layout.Content style={{ padding: mobile ? 12 : 24 }}>
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
