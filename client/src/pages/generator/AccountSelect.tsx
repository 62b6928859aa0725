import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../lib/http';
import { formatState } from '../../lib/format';
import { getSessionUser } from '../../lib/session';
import type { JobAccount, JobKind } from './jobRow';

export type AccountChoice = number | 'new' | undefined;

interface Props {
  kind: JobKind;
  value: AccountChoice;
  onChange: (value: AccountChoice) => void;
  /** The account a job being edited uses, shown even when it is not the caller's own. */
  current?: JobAccount | null;
  disabled?: boolean;
}

/**
 * The WhatsApp selector of the create screens: the caller's accounts (dev: all), and 'Daftar Baru',
 * which opens /whatsapp/create?type=generator|validator to link a new one.
 */
export function AccountSelect({ kind, value, onChange, current, disabled }: Props) {
  const navigate = useNavigate();
  const user = getSessionUser();
  const [accounts, setAccounts] = useState<JobAccount[]>([]);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const owner = user?.role === 'dev' ? 'null' : String(user?.id ?? '');
    let live = true;
    api<{ list: JobAccount[] }>(`/admin/whatsapp/list/${owner}`, { fallback: 'Error fetching Whatsapp list' })
      .then((res) => live && setAccounts(res.list ?? []))
      .catch(() => live && setAccounts([]))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [user?.id, user?.role]);

  const all = current && !accounts.some((a) => a.id === current.id) ? [current, ...accounts] : accounts;
  const options = [
    ...all.map((a) => ({ value: a.id, label: `${a.pushname ?? '-'} (${a.phonenumber ?? '-'}) — ${formatState(a.state)}` })),
    { value: 'new' as const, label: 'Daftar Baru' },
  ];

  return (
    <Select<number | 'new'>
      aria-label="WhatsApp"
      placeholder="Pilih akun WhatsApp"
      loading={loading}
      disabled={disabled}
      value={value}
      options={options}
      onChange={(v) => {
        onChange(v);
        if (v === 'new') navigate(`/whatsapp/create?type=${kind}`);
      }}
      style={{ width: '100%' }}
    />
  );
}
