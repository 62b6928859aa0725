import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from './http';

const NETWORK = 'Network error. Please try again.';

/**
 * A form's save: `saving` while `work` runs, and its failure as `error` (the server's message, else
 * `fallback`). `onError` sees the failure first (e.g. to mark fields).
 */
export function useSaveForm(fallback = NETWORK) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (work: () => Promise<unknown>, onError?: (err: unknown) => void) => {
      setSaving(true);
      setError(null);
      try {
        await work();
      } catch (err) {
        onError?.(err);
        setError(errorText(err, fallback));
      } finally {
        setSaving(false);
      }
    },
    [fallback],
  );
  return { saving, error, setError, run };
}

interface Load<T> {
  /** What to load (e.g. the ?id); null: nothing. A new key loads again. */
  key: string | null;
  load: (key: string) => Promise<T>;
  /** Called with the answer while the screen is still open. */
  apply: (answer: T) => void;
  onError: (message: string) => void;
  fallback: string;
  /** A missing key is an error (`fallback`), not a new record. */
  required?: boolean;
}

/** Loads a form's record once per key, ignoring answers that come after the screen closed. Answers `loading`. */
export function useFormLoad<T>({ key, load, apply, onError, fallback, required }: Load<T>): boolean {
  const [loading, setLoading] = useState(key !== null || Boolean(required));
  const latest = useRef({ load, apply, onError });
  latest.current = { load, apply, onError };

  useEffect(() => {
    if (key === null) {
      if (required) latest.current.onError(fallback);
      setLoading(false);
      return;
    }
    let live = true;
    setLoading(true);
    latest.current
      .load(key)
      .then((answer) => live && latest.current.apply(answer))
      .catch((err: unknown) => live && latest.current.onError(errorText(err, fallback)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [key, fallback, required]);

  return loading;
}
