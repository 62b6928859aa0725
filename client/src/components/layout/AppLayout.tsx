import { Layout } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import type { SessionUser } from '../../lib/session';
import { bandOf, useViewportWidth } from '../../lib/useViewport';
import { PageFallback } from './PageFallback';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { useTheme } from './theme';

const SidebarDrawer = lazy(() => import('./SidebarDrawer').then((m) => ({ default: m.SidebarDrawer })));

/**
 * Sidebar, top bar and content. Phones (< 768 px) get the menu as an overlay drawer, so a closed
 * sidebar takes no width; tablets (768–1023 px) start with it collapsed; desktops with it expanded.
 */
export function AppLayout({ user }: { user: SessionUser }) {
  const band = bandOf(useViewportWidth());
  const mobile = band === 'mobile';
  const [expanded, setExpanded] = useState(band === 'desktop');
  const [mobileOpen, setMobileOpen] = useState(false);
  const { theme } = useTheme();

  // Crossing a breakpoint resets the sidebar to that size's start; leaving phones closes the drawer.
  useEffect(() => {
    setExpanded(band === 'desktop');
    setMobileOpen(false);
  }, [band]);

  const collapsed = mobile ? !mobileOpen : !expanded;
  const toggle = () => (mobile ? setMobileOpen((o) => !o) : setExpanded((e) => !e));
  const dark = theme === 'dark';

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {mobile ? (
        <Suspense fallback={null}>
          <SidebarDrawer role={user.role} open={mobileOpen} dark={dark} onClose={() => setMobileOpen(false)} />
        </Suspense>
      ) : (
        <Sidebar role={user.role} collapsed={collapsed} dark={dark} />
      )}
      <Layout style={{ minWidth: 0 }}>
        <TopBar user={user} collapsed={collapsed} mobile={mobile} onToggle={toggle} />
        <Layout.Content style={{ padding: mobile ? 12 : 24, minWidth: 0 }}>
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
