import { errorCodeFor, fieldLabelKey, isErrorCode, type ErrorMatch } from '../../../common/errors';
import { i18n } from '../providers/i18n';
import { ApiError, serverMessage } from './http';
import type { SkipReason } from './skipReason';

export type { SkipReason } from './skipReason';

export type Translate = (key: string, options: Record<string, unknown>) => string;

/** The server's code when it sent a known one, else the catalogue's code for its message. */
function matchOf(msg: string, code: unknown): ErrorMatch | undefined {
  if (isErrorCode(code)) return { code, params: errorCodeFor(msg)?.params ?? {} };
  return errorCodeFor(msg);
}

/**
 * A variable part in the active language: a field label by its key (`errors.labels.*`), a part that is
 * itself a known message (the reason in 'Target Nomor Awal: …') by its code; anything else as sent.
 */
function paramText(name: string, value: string, t: Translate): string {
  const label = name === 'label' ? fieldLabelKey(value) : undefined;
  if (label) return t(`errors.labels.${label}`, { defaultValue: value });
  return errorCodeFor(value) ? serverText(value, undefined, t) : value;
}

/**
 * The locale's text for a server message (`errors.<code>`), so an Indonesian screen never shows the
 * server's English sentence; an unknown message is shown as the server sent it.
 */
export function serverText(msg: string, code: unknown, t: Translate): string {
  const match = matchOf(msg, code);
  if (!match) return msg;
  const params = Object.fromEntries(Object.entries(match.params).map(([name, value]) => [name, paramText(name, value, t)]));
  return t(`errors.${match.code}`, { ...params, defaultValue: msg });
}

/** Field errors (`errors`) carry the same messages; each is translated on its own. */
export function serverFieldErrors(errors: Record<string, string> | undefined, t: Translate): Record<string, string> | undefined {
  if (!errors || typeof errors !== 'object') return errors;
  const out: Record<string, string> = {};
  for (const [field, msg] of Object.entries(errors)) out[field] = typeof msg === 'string' ? serverText(msg, undefined, t) : msg;
  return out;
}

/** `t` of the active language, for code outside React. */
export const translate: Translate = (key, options) => i18n.t(key, options);

/**
 * A failed answer's body as ApiError: a known `code` (or message) shows the locale's text. The
 * `errors` area of the locale must be loaded (lib/http.ts and the console load it).
 */
export function errorFromBody(parsed: unknown, status: number, fallback: string): ApiError {
  const b = (parsed && typeof parsed === 'object' ? parsed : {}) as { errors?: Record<string, string>; code?: number | string };
  const msg = serverMessage(parsed) ?? fallback;
  return new ApiError(serverText(msg, b.code, translate), status, serverFieldErrors(b.errors, translate), b.code);
}


/** The skip reason in the active language; the row's own `reason` when the code is unknown. */
export function skipReasonText(row: SkipReason, t: Translate): string {
  return serverText(row.reason, row.reasonCode, t);
}
