import { Typography } from 'antd';
import type { SessionUser } from '../../lib/session';

export function AdminDashboard({ user }: { user: SessionUser }) {
  return (
    <div data-testid="admin-dashboard">
      <Typography.Title level={3}>Halo, {user.firstname}!</Typography.Title>
    </div>
  );
}
