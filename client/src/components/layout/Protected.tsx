import { useLogout } from '@refinedev/core';
import { useEffect, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { canOpenPage, isRole } from '../../../../common/roles';
import { endSession, getSessionUser, getToken, type SessionUser } from '../../lib/session';
import { setUnauthorizedHandler } from '../../lib/http';
import { validateToken, type TokenCheck } from '../../providers/auth';
import { closeSocket, loadSocketClient } from '../../providers/live';
import { AppLayout } from './AppLayout';
import { PageFallback } from './PageFallback';

/** Read by /signin: why the visitor was sent there. */
export interface SignInNotice {
  notice?: 'serverError';
}

/**
 * The protected layout: no token, or a stored user without a role → /signin; the token is validated
 * with the server first (isvalid false signs out; a failed call signs out and /signin says 'Internal
 * server error'); a role the route table does not allow → /not-authorized.
 */
export function Protected() {
  const token = getToken();
  const location = useLocation();
  const { mutate: logout } = useLogout();
  const [status, setStatus] = useState<TokenCheck | 'checking'>('checking');
  const [user] = useState<SessionUser | null>(() => getSessionUser());
  const signedIn = Boolean(token) && isRole(user?.role);

  useEffect(() => {
    if (!token || !signedIn) return;
    // Every console screen listens for live events; fetch the socket client while the token is checked.
    void loadSocketClient();
    let live = true;
    void validateToken(token).then((check) => {
      if (!live) return;
      setStatus(check);
      if (check !== 'valid') closeSocket();
      if (check === 'invalid') logout();
      // The server could not be asked: the session ends here and /signin shows why.
      if (check === 'failed') endSession();
    });
    setUnauthorizedHandler(() => {
      closeSocket();
      logout();
    });
    // Another tab signed out or in as someone else: the cookies are shared, this tab's screen is not.
    // Coming back to it, the page starts again as whoever is signed in now (or at /signin).
    const onReturn = () => {
      if (document.visibilityState === 'hidden') return;
      if (getToken() !== token || getSessionUser()?.id !== user?.id) window.location.reload();
    };
    window.addEventListener('focus', onReturn);
    document.addEventListener('visibilitychange', onReturn);
    return () => {
      live = false;
      setUnauthorizedHandler(null);
      window.removeEventListener('focus', onReturn);
      document.removeEventListener('visibilitychange', onReturn);
    };
  }, [token, signedIn, logout, user?.id]);

  // Before the token test: the failed check has just removed the token.
  if (status === 'failed') return <Navigate to="/signin" replace state={{ notice: 'serverError' } satisfies SignInNotice} />;
  if (!token || !user || !signedIn) return <Navigate to="/signin" replace />;
  if (status === 'checking') return <PageFallback full />;
  if (status === 'invalid') return <Navigate to="/signin" replace />;
  if (!canOpenPage(user.role, location.pathname)) return <Navigate to="/not-authorized" replace />;
  return <AppLayout user={user} />;
}
