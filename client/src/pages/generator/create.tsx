import { Form, Input } from 'antd';
import { useState } from 'react';
import { RANGE_ORDER_MESSAGE } from '../../../../common/jobs';
import { phoneOrNull } from '../../../../common/phone';
import { loadConfig } from '../../lib/config';
import { JobFormCard } from './JobForm';
import { useJobForm } from './useJobForm';

/** 'Tambah Akun Generator' at /generator/create; `?id=` edits a generator (its range is then fixed). */
export function GeneratorCreate() {
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const form = useJobForm<'start_number' | 'end_number'>('generator', (g) => {
    setStart(g.start_number ?? '');
    setEnd(g.end_number ?? '');
  });
  const { id, status } = form;

  const submit = async () => {
    const { defaultCountry } = await loadConfig();
    const a = phoneOrNull(start, defaultCountry);
    const b = phoneOrNull(end, defaultCountry);
    if (a && b && BigInt(a) > BigInt(b)) {
      form.setErrors({ start_number: RANGE_ORDER_MESSAGE });
      return;
    }
    if (form.intervalsOutOfOrder()) return;
    const body = { start_number: start.trim(), end_number: end.trim(), ...form.settingsBody() };
    await form.send(body, 'Network error. Please try again.', { created: 'Generator berhasil dibuat', updated: 'Generator berhasil diperbarui' });
  };

  const disabled = form.saving || form.account === 'new' || !start.trim() || !end.trim();

  return (
    <JobFormCard title="Tambah Akun Generator" form={form} disabled={disabled} onSubmit={submit}>
      <Form.Item label="Target Nomor Awal" {...status('start_number')}>
        <Input name="start_number" value={start} disabled={Boolean(id)} placeholder="6281xxxxxxx" inputMode="numeric" onChange={(e) => setStart(e.target.value)} />
      </Form.Item>
      <Form.Item label="Target Nomor Akhir" {...status('end_number')}>
        <Input name="end_number" value={end} disabled={Boolean(id)} placeholder="6281xxxxxxx" inputMode="numeric" onChange={(e) => setEnd(e.target.value)} />
      </Form.Item>
    </JobFormCard>
  );
}
