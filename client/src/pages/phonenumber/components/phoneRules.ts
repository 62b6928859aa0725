import type { FormItemProps } from 'antd';
import { normalizePhone, phoneOrNull } from '../../../../../common/phone';
import { loadConfig } from '../../../lib/config';
import { i18n } from '../../../providers/i18n';

/** 'Nomor Telepon': required, and a number the server will accept. */
export const PHONE_RULES: FormItemProps['rules'] = [
  // A rule function, so the message is read in the language of the moment.
  () => ({ required: true, whitespace: true, message: i18n.t('phonenumber.numberRequired') }),
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
