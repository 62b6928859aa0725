import { Typography } from 'antd';
import type { SessionUser } from '../../lib/session';

export function MemberDashboard({ user }: { user: SessionUser }) {
  return (
    <div data-testid="member-dashboard">
      <Typography.Title level={3}>Halo, {user.firstname}!</Typography.Title>
    </div>
  );
}
