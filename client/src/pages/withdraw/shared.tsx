import { Tag } from 'antd';

export type WithdrawStatus = 'requested' | 'accepted' | 'rejected';

export interface WithdrawRow {
  id: number;
  userId: number;
  nominal: number;
  status: WithdrawStatus;
  createdAt: string;
  updatedAt: string | null;
  User: {
    firstname: string;
    lastname: string;
    email: string;
    account_bank: string | null;
    account_number: string | null;
    account_name: string | null;
  } | null;
}

const LOOK: Record<WithdrawStatus, { label: string; color: string }> = {
  requested: { label: 'Diajukan', color: 'orange' },
  accepted: { label: 'Diterima', color: 'green' },
  rejected: { label: 'Ditolak', color: 'red' },
};

export function WithdrawStatusTag({ status }: { status: WithdrawStatus }) {
  const look = LOOK[status] ?? { label: status, color: 'default' };
  return (
    <Tag color={look.color} data-status={status}>
      {look.label}
    </Tag>
  );
}
