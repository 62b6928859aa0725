import type { FormItemProps } from 'antd';
import { normalizePhone } from '../../../../../common/phone';
import { loadConfig } from '../../../lib/config';

/** 'Nomor Telepon': required, and a number the server will accept. */
export const PHONE_RULES: FormItemProps['rules'] = [
  { required: true, whitespace: true, message: 'Nomor telepon wajib diisi.' },
  {
    validator: async (_r, v: string | undefined) => {
      if (!v || !v.trim()) return;
      const r = normalizePhone(v, (await loadConfig()).defaultCountry);
      if (!r.ok) throw new Error(r.message);
    },
  },
];
