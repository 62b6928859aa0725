import { useCan, useCustom, useTranslate } from '@refinedev/core';
import { Select } from 'antd';
import { useNavigate } from 'react-router';
import { formatState } from '../../lib/format';
import { failWith } from '../../lib/notify';
import { getSessionUser } from '../../lib/session';
import type { JobAccount, JobKind } from './jobRow';

export type AccountChoice = number | 'new' | undefined;

interface Props {
  kind: JobKind;
  /** Set by the form item. */
  id?: string;
  value?: AccountChoice;
  onChange?: (value: AccountChoice) => void;
  /** The account a job being edited uses, shown even when it is not the caller's own. */
  current?: JobAccount | null;
  disabled?: boolean;
}

/** The accounts the create screens offer: the caller's own (dev: all). One read, shared by its users. */
export function useJobAccounts() {
  const t = useTranslate();
  const user = getSessionUser();
  const all = useCan({ resource: 'whatsapp', action: 'listAll' });
  const owner = all.data?.can ? 'null' : String(user?.id ?? '');
  const { query } = useCustom<{ list: JobAccount[] }>({
    url: `/admin/whatsapp/list/${owner}`,
    method: 'get',
    // Asked once the access-control provider has said whose accounts these are.
    queryOptions: { enabled: all.data !== undefined },
    // An account list that cannot be read leaves the selector empty; the notification provider says why.
    errorNotification: failWith(t('whatsapp.listError')),
  });
  return { accounts: query.data?.data.list ?? [], query };
}

/** Whether the chosen account is linked through the Cloud API, which cannot check numbers. */
export function isCloudAccount(accounts: JobAccount[], choice: AccountChoice): boolean {
  return typeof choice === 'number' && accounts.some((a) => a.id === choice && a.gateway === 'cloud-api');
}

/**
 * The WhatsApp selector of the create screens: the caller's accounts (dev: all), and 'Daftar Baru',
 * which opens /whatsapp/create?type=generator|validator to link a new one.
 */
export function AccountSelect({ kind, id, value, onChange, current, disabled }: Props) {
  const t = useTranslate();
  const navigate = useNavigate();
  const { accounts, query } = useJobAccounts();

  const all = current && !accounts.some((a) => a.id === current.id) ? [current, ...accounts] : accounts;
  const options = [
    ...all.map((a) => ({ value: a.id, label: `${a.pushname ?? '-'} (${a.phonenumber ?? '-'}) — ${formatState(a.state)}` })),
    { value: 'new' as const, label: t('jobs.form.newAccount') },
  ];

  return (
    <Select<number | 'new'>
      id={id}
      aria-label={t('jobs.form.whatsapp')}
      placeholder={t('jobs.form.pickAccount')}
      loading={query.isLoading}
      disabled={disabled}
      value={value}
      options={options}
      status={query.isError ? 'warning' : undefined}
      onChange={(v) => {
        onChange?.(v);
        if (v === 'new') navigate(`/whatsapp/create?type=${kind}`);
      }}
      style={{ width: '100%' }}
    />
  );
}
