import { useForm } from '@refinedev/antd';
import { useTranslate, type HttpError } from '@refinedev/core';
import { Form } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useSingleFlight } from '../../lib/useSingleFlight';
import type { AccountChoice } from './AccountSelect';
import type { JobKind, JobRow } from './jobRow';

/** The fields the generator and validator forms share, as the form holds them. */
export type JobFormValues = {
  interval_min: number | null;
  interval_max: number | null;
  whatsapp_id: AccountChoice;
  b_insert: boolean;
};

/** What is sent: JSON for the generator, multipart for the validator (its file). */
export type JobBody = Record<string, unknown> | FormData;

const DEFAULTS: JobFormValues = { interval_min: 1, interval_max: 2, whatsapp_id: undefined, b_insert: false };

/**
 * Refine's form for /generator/create and /validator/create: `?id=` edits (the row is read through the
 * data provider and fills the fields), otherwise it creates with Interval Min 1 and Max 2. Server field
 * errors land under their fields; a saved job says so and returns to the list.
 */
export function useJobForm(kind: JobKind) {
  const t = useTranslate();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');

  const refine = useForm<JobRow, HttpError, JobBody>({
    resource: kind,
    action: id ? 'edit' : 'create',
    id: id ?? undefined,
    redirect: false,
    successNotification: () => ({ message: t(id ? `${kind}.updated` : `${kind}.created`), type: 'success' }),
    // The form shows a failure itself: under the fields it names, or above the form.
    errorNotification: false,
    onMutationSuccess: () => navigate(`/${kind}/list`),
  });
  const singleFlight = useSingleFlight();
  const row = refine.query?.data?.data;
  const account = Form.useWatch('whatsapp_id', refine.form) as AccountChoice;

  /** The shared fields as the API names them (defaults 1 and 2 for empty intervals). */
  const settingsBody = (values: JobFormValues) => ({
    whatsapp_id: values.whatsapp_id === 'new' ? undefined : values.whatsapp_id,
    b_insert: values.b_insert ? 1 : 0,
    interval_min: values.interval_min ?? 1,
    interval_max: values.interval_max ?? 2,
  });

  const initialValues: JobFormValues & Record<string, unknown> = row
    ? { ...row, interval_min: row.interval_min, interval_max: row.interval_max, whatsapp_id: row.whatsapp_id ?? undefined, b_insert: row.b_insert === 1 }
    : DEFAULTS;

  const mutationError = refine.mutation.error;
  const readError = refine.query?.error;
  // A refusal naming its fields shows under them (and clears as they are corrected); others above the form.
  const fieldErrors = mutationError?.errors && Object.keys(mutationError.errors).length > 0;
  return {
    kind,
    id,
    form: refine.form,
    formProps: { ...refine.formProps, initialValues },
    /** Sends the body the screen built from its values; a second click while it runs sends nothing. */
    save: singleFlight((body: JobBody) => refine.onFinish(body).catch(() => undefined)),
    saving: refine.mutation.isPending,
    /** Refine's save button props: it submits the form, whose onFinish builds the body. */
    saveButtonProps: refine.saveButtonProps,
    loading: Boolean(id) && Boolean(refine.query?.isLoading),
    /** The account of the job being edited, shown even when it is not the caller's own. */
    current: row?.Whatsapp ?? null,
    account,
    error: (fieldErrors ? null : mutationError?.message) ?? readError?.message ?? null,
    settingsBody,
  };
}

export type JobForm = ReturnType<typeof useJobForm>;
