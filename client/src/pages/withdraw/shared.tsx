import { useTranslate } from '@refinedev/core';
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

const COLOR: Record<WithdrawStatus, string> = { requested: 'orange', accepted: 'green', rejected: 'red' };

export function WithdrawStatusTag({ status }: { status: WithdrawStatus }) {
  const t = useTranslate();
  const known = status in COLOR;
  return (
    <Tag color={known ? COLOR[status] : 'default'} data-status={status}>
      {known ? t(`withdraw.status.${status}`) : status}
    </Tag>
  );
}
