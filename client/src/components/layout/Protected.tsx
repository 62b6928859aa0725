import { Spin } from 'antd';
import { useLogout } from '@refinedev/core';
import { useEffect, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { canOpenPage } from '../../../../common/roles';
import { getSessionUser, getToken, type SessionUser } from '../../lib/session';
import { setUnauthorizedHandler } from '../../lib/http';
import { validateToken } from '../../providers/auth';
import { closeSocket } from '../../providers/live';
import { AppLayout } from './AppLayout';

type Status = 'checking' | 'valid' | 'invalid';

/**
 * The protected layout: no token → /signin; the token is validated with the server first
 * (isvalid false or a failed call signs out); a role the route table does not allow → /not-authorized.
 */
export function Protected() {
  const token = getToken();
  const location = useLocation();
  const { mutate: logout } = useLogout();
  const [status, setStatus] = useState<Status>('checking');
  const [user] = useState<SessionUser | null>(() => getSessionUser());

  useEffect(() => {
    if (!token) return;
    let live = true;
    void validateToken(token).then((ok) => {
      if (!live) return;
      setStatus(ok ? 'valid' : 'invalid');
      if (!ok) {
        closeSocket();
        logout();
      }
    });
    setUnauthorizedHandler(() => {
      closeSocket();
      logout();
    });
    return () => {
      live = false;
      setUnauthorizedHandler(null);
    };
  }, [token, logout]);

  if (!token || !user) return <Navigate to="/signin" replace />;
  if (status === 'checking') {
    return (
      <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
        <Spin size="large" />
      </div>
    );
  }
  if (status === 'invalid') return <Navigate to="/signin" replace />;
  if (!canOpenPage(user.role, location.pathname)) return <Navigate to="/not-authorized" replace />;
  return <AppLayout user={user} />;
}

/** /signin and /signup: an already signed-in visitor goes to /dashboard. */
export function PublicOnly({ children }: { children: React.ReactNode }) {
  return getToken() ? <Navigate to="/dashboard" replace /> : <>{children}</>;
}
