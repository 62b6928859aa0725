import type { FormItemProps } from 'antd';
import { normalizePhone } from '../../../../../common/phone';

/** 'Nomor Telepon': required, and a number the server will accept. */
export const PHONE_RULES: FormItemProps['rules'] = [
  { required: true, whitespace: true, message: 'Nomor telepon wajib diisi.' },
  {
    validator: (_r, v: string | undefined) => {
      if (!v || !v.trim()) return Promise.resolve();
      const r = normalizePhone(v);
      return r.ok ? Promise.resolve() : Promise.reject(new Error(r.message));
    },
  },
];
