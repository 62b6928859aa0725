import type { FormItemProps } from 'antd';
import { normalizePhone, phoneOrNull } from '../../../../../common/phone';
import { loadConfig } from '../../../lib/config';

/** 'Nomor Telepon': required, and a number the server will accept. */
export const PHONE_RULES: FormItemProps['rules'] = [
  { required: true, whitespace: true, message: 'Nomor telepon wajib diisi.' },
  {
    validator: async (_r, v: string | undefined) => {
      if (!v || !v.trim()) return;
      const r = normalizePhone(v, (await loadConfig()).defaultCountry);
      // A stored number shown by the edit screen (E.164 digits) is fine as it is; the server decides.
      const stored = /^\d+$/.test(v.trim()) && phoneOrNull(`+${v.trim()}`) === v.trim();
      if (!r.ok && !stored) throw new Error(r.message);
    },
  },
];
