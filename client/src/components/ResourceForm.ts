import type { BaseKey, BaseRecord, HttpError } from '@refinedev/core';
import { useTranslate } from '@refinedev/core';
import { useForm, type UseFormProps } from '@refinedev/antd';
import type { ButtonProps, FormInstance, FormProps } from 'antd';
import type { SaveButtonProps } from '@refinedev/antd';
import { useSingleFlight } from '../lib/useSingleFlight';

interface Options<TRecord extends BaseRecord> {
  resource: string;
  /** The record's `?id` on an edit screen; create screens leave it out. */
  id?: BaseKey | null;
  edit?: boolean;
  /** Where the screen goes after a save (back, or to the list); it receives the call's answer. */
  onSaved: (saved: BaseRecord) => void;
  /** False when the screen already holds the record (a dialog opened from it): nothing is fetched. */
  loadRecord?: boolean;
  /** The spec's message when loading the record fails without a server message ('Error fetching Proxy'). */
  loadFallback?: string;
  /** The spec's message when saving fails without a server message (default: the network message). */
  saveFallback?: string;
  /**
   * What the notification provider says after a save ('Tersimpan.' by default); false where the spec
   * names a dialog of its own for it (the bonus's 'Berhasil').
   */
  saved?: string | false | ((record: BaseRecord) => string);
  /** Turns the loaded record into form values (a status into a switch). */
  select?: (record: TRecord) => BaseRecord;
  /** The save button's words: 'Simpan' and 'Menyimpan...' unless the spec names others ('Simpan Proxy'). */
  saveLabel?: string;
  savingLabel?: string;
}

/**
 * Refine's antd `useForm` for the spec's create and `?id=` edit screens: no redirect of Refine's own
 * (the screen goes back), a saved record told by the notification provider, server field errors under
 * their fields by `HttpError.errors`. A failure is shown once, in the form as 'Error: …' next to the
 * fields it names (the spec's form error), so the provider does not repeat it. `error` is that failure.
 */
export function useResourceForm<TRecord extends BaseRecord, TVariables = Record<string, unknown>>({ resource, id, edit, onSaved, loadRecord = true, loadFallback, saveFallback, saved, select, saveLabel, savingLabel }: Options<TRecord>) {
  const t = useTranslate();
  const props: UseFormProps<TRecord, HttpError, TVariables> = {
    resource,
    action: edit ? 'edit' : 'create',
    id: id ?? undefined,
    redirect: false,
    successNotification:
      saved === false ? false : (res) => ({ message: typeof saved === 'function' ? saved(res?.data ?? {}) : (saved ?? t('shared.saved')), type: 'success' }),
    // The form shows the failure itself, beside the fields the server named (see above).
    errorNotification: false,
    queryMeta: { fallback: loadFallback },
    mutationMeta: { fallback: saveFallback ?? t('shared.network') },
    onMutationSuccess: (res) => onSaved(res.data),
    // Refine enables the record's fetch on edit screens itself; only a held record turns it off.
    queryOptions: { ...(loadRecord ? {} : { enabled: false }), ...(select ? { select: (res) => ({ ...res, data: select(res.data) as TRecord }) } : {}) },
  };
  const form = useForm<TRecord, HttpError, TVariables>(props);
  // One save at a time: a double click on Simpan / Kirim must not create the record twice.
  const singleFlight = useSingleFlight();
  const formOnFinish = form.formProps.onFinish;
  const onFinish = singleFlight((values: TVariables) => formOnFinish?.(values));
  const loadError = edit && !id ? (loadFallback ?? null) : form.query?.error ? form.query.error.message || loadFallback || null : null;
  const saveError = form.mutation.error ? form.mutation.error.message || saveFallback || t('shared.network') : null;
  /**
   * Forgets a failed save (its message and the field errors the server gave): something else on the
   * screen started. A save still running is left alone, and the form's own checks keep their messages.
   */
  const clearSaveError = () => {
    if (!form.mutation.isError) return;
    const serverFields = Object.keys(form.mutation.error?.errors ?? {});
    form.mutation.reset();
    (form.formProps.form as FormInstance | undefined)?.setFields(serverFields.map((name) => ({ name, errors: [] })));
  };
  const saving = form.mutation.isPending;
  const loading = Boolean(edit && id && loadRecord && form.query?.isLoading);
  return {
    ...form,
    formProps: { ...form.formProps, onFinish } as FormProps<TVariables>,
    saveButtonProps: specSaveButtonProps(form.saveButtonProps, { saving, disabled: loading, label: saveLabel ?? t('shared.save'), busyLabel: savingLabel ?? t('shared.saving') }),
    clearSaveError,
    loading,
    saving,
    error: saveError ?? loadError,
  };
}

/**
 * The form's props for a screen whose fields differ from what the call takes (a switch for a status):
 * `toCall` turns the field values into the call's body, or answers null when the screen stopped the save
 * itself (it showed the spec's alert).
 */
export function mapFormProps<TFields, TVariables>(formProps: FormProps<TVariables>, toCall: (fields: TFields) => TVariables | null): FormProps<TFields> {
  const { onFinish, ...rest } = formProps;
  // The fields are the loaded record's view, not the call's body; only onFinish differs.
  return {
    ...(rest as FormProps<TFields>),
    onFinish: (fields: TFields) => {
      const body = toCall(fields);
      if (body !== null) onFinish?.(body);
    },
  };
}

/**
 * The form's props with `clearOther` run before each save: a create screen with a manual form and an
 * upload shows only the latest of their errors.
 */
export function clearingOnSave<T>(formProps: FormProps<T>, clearOther: () => void): FormProps<T> {
  return {
    ...formProps,
    onFinish: (values: T) => {
      clearOther();
      return formProps.onFinish?.(values);
    },
  };
}

/**
 * `<Create>` for a screen with two ways in (a manual form and a file upload, each in its own card):
 * Refine's page header and title, its content card left bare so the two cards sit side by side, and no
 * footer (each card carries its own button).
 */
export const TWO_WAY_CREATE = {
  contentProps: { actions: undefined, variant: 'borderless', style: { background: 'transparent', boxShadow: 'none' }, styles: { body: { padding: 0 } } },
} as const;

/**
 * Refine's save button with the spec's words: its label while idle, its busy label ('Menyimpan...')
 * while the call runs, disabled then, without Refine's icon or spinner (the spec's button is plain text).
 */
export function specSaveButtonProps(saveButtonProps: ButtonProps & { onClick?: () => void }, { saving, disabled, label, busyLabel }: { saving: boolean; disabled?: boolean; label: string; busyLabel: string }): SaveButtonProps {
  return { ...saveButtonProps, icon: null, loading: false, disabled: saving || Boolean(disabled), children: saving ? busyLabel : label };
}
