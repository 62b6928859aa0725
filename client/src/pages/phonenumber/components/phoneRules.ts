import type { FormItemProps } from 'antd';
import { normalizePhone, phoneOrNull } from '../../../../../common/phone';
import { loadConfig } from '../../../lib/config';
import { serverText, translate } from '../../../lib/serverError';
import { i18n } from '../../../providers/i18n';

/**
 * Why the server would refuse `value` as a number of `country`, in the active language (the server's
 * own words, translated like its answers; `prefix` is the label the server puts before them, as in
 * 'Target Nomor Awal: …'); null when it is a valid number.
 */
export function phoneProblem(value: string, country: string, prefix?: string): string | null {
  const r = normalizePhone(value, country);
  if (r.ok) return null;
  return serverText(prefix ? `${prefix}: ${r.message}` : r.message, undefined, translate);
}

/** 'Nomor Telepon': required, and a number the server will accept. */
export const PHONE_RULES: FormItemProps['rules'] = [
  // A rule function, so the message is read in the language of the moment.
  () => ({ required: true, whitespace: true, message: i18n.t('phonenumber.numberRequired') }),
  {
    validator: async (_r, v: string | undefined) => {
      if (!v || !v.trim()) return;
      const problem = phoneProblem(v, (await loadConfig()).defaultCountry);
      // A stored number shown by the edit screen (E.164 digits) is fine as it is; the server decides.
      const stored = /^\d+$/.test(v.trim()) && phoneOrNull(`+${v.trim()}`) === v.trim();
      if (problem && !stored) throw new Error(problem);
    },
  },
];
