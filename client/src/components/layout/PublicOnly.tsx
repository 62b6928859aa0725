import { Navigate } from 'react-router';
import { hasSession } from '../../lib/session';

/** /signin and /signup: an already signed-in visitor (token and a user with a role) goes to /dashboard. */
export function PublicOnly({ children }: { children: React.ReactNode }) {
  return hasSession() ? <Navigate to="/dashboard" replace /> : <>{children}</>;
}
