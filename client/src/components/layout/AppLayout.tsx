import { ThemedLayout, useThemedLayoutContext } from '@refinedev/antd';
import { useGetIdentity, usePermissions } from '@refinedev/core';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router';
import { isRole, type Role } from '../../../../common/roles';
import { getSessionUser, type SessionUser } from '../../lib/session';
import { bandOf, useViewportWidth } from '../../lib/useViewport';
import { PageFallback } from './PageFallback';
import { Brand, Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { useTheme } from './theme';

const SidebarDrawer = lazy(() => import('./SidebarDrawer').then((m) => ({ default: m.SidebarDrawer })));

/** The signed-in user and role through the auth provider (the stored session until it has answered). */
function useConsoleUser(): { user: SessionUser | null; role: Role } {
  const { data: identity } = useGetIdentity<SessionUser>();
  const { data: permissions } = usePermissions<string>({});
  const user = identity ?? getSessionUser();
  const role = isRole(permissions) ? permissions : isRole(user?.role) ? user.role : 'member';
  return { user, role };
}

/** The device band, and the sider's start for it when the band changes (phones: closed drawer). */
function useBand() {
  const band = bandOf(useViewportWidth());
  const layout = useThemedLayoutContext();
  // The context's setters are new on each render: only a band change resets the sider.
  const setters = useRef(layout);
  setters.current = layout;
  useEffect(() => {
    setters.current.setSiderCollapsed(band !== 'desktop');
    setters.current.setMobileSiderOpen(false);
  }, [band]);
  return band;
}

/**
 * ThemedLayout's Sider slot: the spec's menu (resources through `useMenu`, each entry behind the
 * access-control provider) in a sticky sider, 290 px or collapsed to 90 px; on phones (< 768 px) an
 * overlay drawer, so a closed menu takes no width.
 */
function ConsoleSider() {
  const band = useBand();
  const { siderCollapsed, mobileSiderOpen, setMobileSiderOpen } = useThemedLayoutContext();
  const { role } = useConsoleUser();
  const dark = useTheme().theme === 'dark';
  if (band === 'mobile') {
    return (
      <Suspense fallback={null}>
        <SidebarDrawer role={role} open={mobileSiderOpen} dark={dark} onClose={() => setMobileSiderOpen(false)} />
      </Suspense>
    );
  }
  return <Sidebar role={role} collapsed={siderCollapsed} dark={dark} />;
}

/** ThemedLayout's Header slot: the menu toggle, menu search, language, theme and the user's menu. */
function ConsoleHeader() {
  const mobile = bandOf(useViewportWidth()) === 'mobile';
  const { siderCollapsed, setSiderCollapsed, mobileSiderOpen, setMobileSiderOpen } = useThemedLayoutContext();
  const { user } = useConsoleUser();
  if (!user) return null;
  const collapsed = mobile ? !mobileSiderOpen : siderCollapsed;
  const toggle = () => (mobile ? setMobileSiderOpen(!mobileSiderOpen) : setSiderCollapsed(!siderCollapsed));
  return <TopBar user={user} collapsed={collapsed} mobile={mobile} onToggle={toggle} />;
}

/**
 * A key that changes when the browser's back or forward buttons move within the console. Refine's
 * `useTable` reads the address when a list mounts (and when it is emptied), not when history brings
 * back another `?status=` / `?s=` / `?page=` of the same list; mounting the screen again on those
 * moves makes it read the address as on opening, and TanStack Query's cache answers at once.
 */
function useHistoryKey(): string {
  const { key } = useLocation();
  const type = useNavigationType();
  const current = useRef(key);
  if (type === 'POP') current.current = key;
  return current.current;
}

const ConsoleTitle = ({ collapsed }: { collapsed: boolean }) => <Brand collapsed={collapsed} />;

/** Refine's ThemedLayout with the console's own Sider, Header and Title, around the current screen. */
export function AppLayout() {
  const band = bandOf(useViewportWidth());
  const historyKey = useHistoryKey();
  return (
    <ThemedLayout Sider={ConsoleSider} Header={ConsoleHeader} Title={ConsoleTitle} initialSiderCollapsed={band !== 'desktop'}>
      <Suspense fallback={<PageFallback />}>
        <Outlet key={historyKey} />
      </Suspense>
    </ThemedLayout>
  );
}
