import { App } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError, api, errorText } from '../../lib/http';
import { INTERVAL_ORDER_MESSAGE } from '../../../../common/jobs';
import type { AccountChoice } from './AccountSelect';
import type { JobAccount, JobKind, JobRow } from './jobRow';

/** Field errors of a job form: the area's own fields, the shared settings, and '_' for the alert. */
export type JobFormErrors<F extends string> = Partial<Record<JobFormField<F>, string>>;
type JobFormField<F extends string> = F | 'interval_min' | 'interval_max' | 'whatsapp_id' | '_';

/**
 * The state the generator and validator create/edit screens share: `?id=` to edit (the row is read
 * once, `fill` takes the area's own fields), the intervals, the WhatsApp account, 'Simpan ke dalam
 * daftar', the errors, and saving to /admin/<kind>/create or PUT /admin/<kind>/<id>.
 */
export function useJobForm<F extends string>(kind: JobKind, fill: (row: JobRow) => void) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const [min, setMin] = useState<number | null>(1);
  const [max, setMax] = useState<number | null>(2);
  const [account, setAccount] = useState<AccountChoice>(undefined);
  const [current, setCurrent] = useState<JobAccount | null>(null);
  const [save, setSave] = useState(false);
  const [saving, setSaving] = useState(false);
  const [loading, setLoading] = useState(Boolean(id));
  const [errors, setErrorState] = useState<Partial<Record<string, string>>>({});
  const setErrors = (next: JobFormErrors<F>) => setErrorState(next);
  const fillRef = useRef(fill);
  fillRef.current = fill;

  useEffect(() => {
    if (!id) return;
    api<Record<JobKind, JobRow>>(`/admin/${kind}/${id}`, { fallback: 'Internal server error' })
      .then((res) => {
        const row = res[kind];
        fillRef.current(row);
        setMin(row.interval_min);
        setMax(row.interval_max);
        setAccount(row.whatsapp_id ?? undefined);
        setCurrent(row.Whatsapp);
        setSave(row.b_insert === 1);
      })
      .catch((err: unknown) => setErrorState({ _: errorText(err) }))
      .finally(() => setLoading(false));
  }, [id, kind]);

  /** Interval Min above Interval Max: shows the spec's message under Interval Min. */
  const intervalsOutOfOrder = (): boolean => {
    if (min !== null && max !== null && min > max) {
      setErrorState({ interval_min: INTERVAL_ORDER_MESSAGE });
      return true;
    }
    return false;
  };

  /** The shared fields as the API names them (defaults 1 and 2 for empty intervals). */
  const settingsBody = () => ({ whatsapp_id: account, b_insert: save ? 1 : 0, interval_min: min ?? 1, interval_max: max ?? 2 });

  /** Saves, then says so and returns to the list; a refusal shows its field errors and message. */
  const send = async (body: unknown, fallback: string, done: { created: string; updated: string }) => {
    setSaving(true);
    setErrorState({});
    try {
      await api(id ? `/admin/${kind}/${id}` : `/admin/${kind}/create`, { method: id ? 'PUT' : 'POST', body, fallback });
      void message.success(id ? done.updated : done.created);
      navigate(`/${kind}/list`);
    } catch (err) {
      const fields = err instanceof ApiError ? err.errors : undefined;
      setErrorState({ ...(fields ?? {}), _: errorText(err, fallback) });
    } finally {
      setSaving(false);
    }
  };

  const status = (key: JobFormField<F>) => (errors[key] ? { validateStatus: 'error' as const, help: errors[key] } : {});

  return {
    kind,
    id,
    min,
    setMin,
    max,
    setMax,
    account,
    setAccount,
    current,
    save,
    setSave,
    saving,
    loading,
    errors,
    setErrors,
    status,
    intervalsOutOfOrder,
    settingsBody,
    send,
  };
}

export type JobForm<F extends string> = ReturnType<typeof useJobForm<F>>;
