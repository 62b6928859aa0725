import type { FormItemProps } from 'antd';
import { loadConfig } from '../../../lib/config';
import { i18n } from '../../../providers/i18n';

/**
 * The phone-number normaliser with libphonenumber's metadata (about 50 KB gzip), loaded when a number is
 * first checked rather than with the screen: the list with its add dialog, the create and edit screens
 * and the generator only need it once someone types a number.
 */
export const loadPhone = () => import('../../../../../common/phone');

/**
 * Why the server would refuse `value` as a number of `country`, in the active language (the server's
 * own words, translated like its answers; `prefix` is the label the server puts before them, as in
 * 'Target Nomor Awal: …'); null when it is a valid number.
 */
export async function phoneProblem(value: string, country: string, prefix?: string): Promise<string | null> {
  const r = (await loadPhone()).normalizePhone(value, country);
  if (r.ok) return null;
  // The server's message table (common/errors.ts) loads, like the library, with the first refusal.
  const { serverText, translate } = await import('../../../lib/serverError');
  return serverText(prefix ? `${prefix}: ${r.message}` : r.message, undefined, translate);
}

/** 'Nomor Telepon': required, and a number the server will accept. */
export const PHONE_RULES: FormItemProps['rules'] = [
  // A rule function, so the message is read in the language of the moment.
  () => ({ required: true, whitespace: true, message: i18n.t('phonenumber.numberRequired') }),
  {
    validator: async (_r, v: string | undefined) => {
      if (!v || !v.trim()) return;
      const problem = await phoneProblem(v, (await loadConfig()).defaultCountry);
      // A stored number shown by the edit screen (E.164 digits) is fine as it is; the server decides.
      const stored = /^\d+$/.test(v.trim()) && (await loadPhone()).phoneOrNull(`+${v.trim()}`) === v.trim();
      if (problem && !stored) throw new Error(problem);
    },
  },
];
