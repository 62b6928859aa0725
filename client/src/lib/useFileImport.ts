import type { UploadFile } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from './http';

/**
 * The file picked for an import and the import's answer. `upload(send)` posts the file as multipart
 * 'file' through `send` (`errors.file_required` when none is picked); a failure goes to `setError`.
 */
export function useFileImport<T>(setError: (error: string | null) => void) {
  const { t } = useTranslation();
  const [file, setFile] = useState<UploadFile | null>(null);
  const [result, setResult] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);

  const upload = async (send: (body: FormData) => Promise<T>, done?: () => void) => {
    const raw = file?.originFileObj;
    if (!raw) {
      setError(t('errors.file_required'));
      return;
    }
    setError(null);
    setResult(null);
    setBusy(true);
    const body = new FormData();
    body.append('file', raw);
    try {
      setResult(await send(body));
      setFile(null);
    } catch (err) {
      setError(errorText(err, t('shared.network')));
    } finally {
      done?.();
      setBusy(false);
    }
  };

  return { file, setFile, result, busy, upload };
}
