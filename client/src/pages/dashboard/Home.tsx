import { useCan } from '@refinedev/core';
import { Navigate } from 'react-router';
import { getSessionUser } from '../../lib/session';
import { AdminDashboard } from './AdminDashboard';
import { MemberDashboard } from './MemberDashboard';

/** `/` and `/dashboard`: members get theirs, admin and dev theirs, staff go to the withdraw requests. */
export function Home() {
  const user = getSessionUser();
  // Which dashboard is the access-control provider's answer; the session gives only who is signed in.
  const member = useCan({ resource: 'dashboard', action: 'member' });
  const admin = useCan({ resource: 'dashboard', action: 'admin' });
  if (!user) return <Navigate to="/signin" replace />;
  if (!member.data || !admin.data) return null;
  if (member.data.can) return <MemberDashboard user={user} />;
  if (admin.data.can) return <AdminDashboard user={user} />;
  return <Navigate to="/withdraw/requested?page=1" replace />;
}
