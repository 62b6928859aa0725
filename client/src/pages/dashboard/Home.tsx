import { Navigate } from 'react-router';
import { getSessionUser } from '../../lib/session';
import { AdminDashboard } from './AdminDashboard';
import { MemberDashboard } from './MemberDashboard';

/** `/` and `/dashboard`: members get theirs, admin and dev theirs, staff go to the withdraw requests. */
export function Home() {
  const user = getSessionUser();
  if (!user) return <Navigate to="/signin" replace />;
  if (user.role === 'staff') return <Navigate to="/withdraw/requested?page=1" replace />;
  if (user.role === 'member') return <MemberDashboard user={user} />;
  return <AdminDashboard user={user} />;
}
