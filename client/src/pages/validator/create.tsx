import { Form, Typography } from 'antd';
import { useState } from 'react';
import { lastChars } from '../../lib/format';
import { MAX_VALIDATOR_FILE_BYTES } from '../../../../common/jobs';
import { JobFormCard } from '../generator/JobForm';
import { useJobForm } from '../generator/useJobForm';

/** 'Tambah Akun Validator' at /validator/create: upload a .csv or .json; `?id=` edits (no new file). */
export function ValidatorCreate() {
  const [file, setFile] = useState<File | null>(null);
  const [fileName, setFileName] = useState('');
  const form = useJobForm<'file'>('validator', (v) => setFileName(v.fileName ?? ''));
  const { id, status, setErrors } = form;

  const pick = (picked: File | null) => {
    setErrors({});
    if (picked && !/\.(csv|json)$/i.test(picked.name)) {
      setFile(null);
      setErrors({ file: 'File harus berformat .csv atau .json' });
      return;
    }
    if (picked && picked.size > MAX_VALIDATOR_FILE_BYTES) {
      setFile(null);
      setErrors({ file: 'Ukuran file paling besar 10 MB' });
      return;
    }
    setFile(picked);
  };

  const submit = async () => {
    if (form.intervalsOutOfOrder()) return;
    const body = new FormData();
    if (!id && file) body.append('file', file);
    for (const [key, value] of Object.entries(form.settingsBody())) body.append(key, String(value ?? ''));
    const fallback = id ? 'Error update validator' : 'Error create validator';
    await form.send(body, fallback, { created: 'Validator berhasil dibuat', updated: 'Validator berhasil diperbarui' });
  };

  const disabled = form.saving || form.account === 'new' || (!file && !id);

  return (
    <JobFormCard title="Tambah Akun Validator" form={form} disabled={disabled} onSubmit={submit}>
      {id ? (
        <Form.Item label="Target File">
          <Typography.Text title={fileName}>{lastChars(fileName, 20)}</Typography.Text>
        </Form.Item>
      ) : (
        <Form.Item label="File (.csv / .json)" {...status('file')}>
          <input type="file" name="file" accept=".csv,.json" aria-label="File" onChange={(e) => pick(e.target.files?.[0] ?? null)} />
        </Form.Item>
      )}
    </JobFormCard>
  );
}
