import { Authenticated, useCan, useIsAuthenticated, useLogout } from '@refinedev/core';
import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { getSessionUser, getToken } from '../../lib/session';
import { setUnauthorizedHandler } from '../../lib/http';
import { closeSocket, loadSocketClient } from '../../providers/live';
import { AppLayout } from './AppLayout';
import { PageFallback } from './PageFallback';

/** Read by /signin: why the visitor was sent there. */
export interface SignInNotice {
  notice?: 'serverError';
}

/** Where `<Authenticated>` sends a visitor it turned away: /signin, saying why when the server failed. */
function ToSignIn() {
  // The answer `<Authenticated>` had (asking again would find the session already ended, without a reason).
  const { data } = useIsAuthenticated({ queryOptions: { refetchOnMount: false } });
  const failed = data?.error?.name === 'serverError';
  return <Navigate to="/signin" replace state={failed ? ({ notice: 'serverError' } satisfies SignInNotice) : undefined} />;
}

/** A role the route table does not allow on this page goes to /not-authorized (the access-control provider decides). */
function PageAccess({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  // The previous page's answer stands while this one's is asked, so the layout does not blink.
  const { data, isLoading } = useCan({ resource: 'page', action: 'list', params: { path: pathname }, queryOptions: { placeholderData: (previous) => previous } });
  if (isLoading && !data) return <PageFallback full />;
  if (!data?.can) return <Navigate to="/not-authorized" replace />;
  return <>{children}</>;
}

/**
 * What a signed-in console keeps up besides the screen: the socket client fetched early, a 401 signing out,
 * and a tab coming back after another tab signed out or in as someone else starting again as whoever is
 * signed in now (the cookies are shared, this tab's screen is not).
 */
function SessionWatch() {
  const { mutate: logout } = useLogout();
  useEffect(() => {
    const token = getToken();
    const userId = getSessionUser()?.id;
    void loadSocketClient();
    setUnauthorizedHandler(() => {
      closeSocket();
      logout();
    });
    const onReturn = () => {
      if (document.visibilityState === 'hidden') return;
      if (getToken() !== token || getSessionUser()?.id !== userId) window.location.reload();
    };
    window.addEventListener('focus', onReturn);
    document.addEventListener('visibilitychange', onReturn);
    return () => {
      setUnauthorizedHandler(null);
      window.removeEventListener('focus', onReturn);
      document.removeEventListener('visibilitychange', onReturn);
    };
  }, [logout]);
  return null;
}

/**
 * The protected layout: Refine's `<Authenticated>` asks the auth provider, which validates the stored
 * token with the server (providers/auth.ts `check`); then the page must be open to the user's role.
 */
export function Protected() {
  return (
    <Authenticated key="console" loading={<PageFallback full />} fallback={<ToSignIn />}>
      <PageAccess>
        <SessionWatch />
        <AppLayout />
      </PageAccess>
    </Authenticated>
  );
}
