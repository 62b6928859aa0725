/**
 * Stable error codes: each maps to the message(s) the server answers with today. The server attaches
 * the code to every error answer whose `msg` is listed here; the client shows `t('errors.<code>')`.
 * `{name}` in a message is a variable part (a field label, a limit) passed to the translation.
 * Skip reasons of imports and validators are listed too, so the client can translate them the same way.
 */
export const ERROR_MESSAGES = {
  // Sign-in, sessions, roles
  token_missing: ['Authorization token is missing'],
  token_invalid: ['Authorization token is missing or invalid'],
  token_expired: ['Invalid or expired token'],
  invalid_credentials: ['Invalid email or password'],
  credentials_required: ['Email and password are required.'],
  sign_in_locked: ['Too many failed sign-in attempts. Please try again in 15 minutes.'],
  role_denied: ['Your role cannot use this call'],
  forbidden: ['Forbidden'],
  // Registration and profile
  first_name_required: ['First name is required.'],
  last_name_required: ['Last name is required.'],
  email_required: ['Email is required.'],
  email_invalid: ['Please enter a valid email address.'],
  email_taken: ['Email is already registered.', 'That email is already registered.'],
  password_required: ['Password is required.'],
  password_too_short: ['Password must be at least 8 characters.'],
  password_confirm_required: ['Please confirm your password.'],
  passwords_mismatch: ['Passwords do not match.'],
  terms_required: ['You must agree to the terms and conditions.'],
  referral_not_found: ['Referral code not found.'],
  // Cloud API
  cloud_tier_reached: ['Batas harian nomor ini dari Meta (tier) sudah tercapai. Blast dapat dilanjutkan setelah 24 jam.'],
  // Not found
  not_found: ['Not found'],
  unknown_route: ['Unknown API route'],
  user_not_found: ['User not found'],
  member_not_found: ['Member not found'],
  bonus_not_found: ['Bonus not found'],
  client_not_found: ['Client not found'],
  generator_not_found: ['Generator not found'],
  validator_not_found: ['Validator not found'],
  level_not_found: ['Level not found'],
  template_not_found: ['Message template not found'],
  phone_number_not_found: ['Phone number not found'],
  proxy_not_found: ['Proxy not found'],
  whatsapp_not_found: ['Whatsapp not found'],
  withdraw_not_found: ['Withdraw not found'],
  skipped_list_gone: ['The skipped list is no longer available.'],
  // Forms
  invalid_request: ['Invalid request'],
  invalid_json_body: ['Invalid JSON body'],
  name_required: ['Name is required.'],
  name_too_long: ['Name is too long.'],
  member_required: ['Member is required.'],
  bonus_member_only: ['Bonus can only be sent to a member.'],
  note_required: ['Keterangan is required.'],
  note_too_long: ['Keterangan is too long.'],
  nominal_required: ['Nominal is required.'],
  nominal_whole: ['Nominal must be a whole number.'],
  nominal_positive: ['Nominal must be more than 0.'],
  bank_names_required: ['Bank names is required.'],
  colors_invalid: ['Colors must be hex colours separated by comma and space, e.g. #2C2C2C, #3E3A32.'],
  interval_min_too_long: ['Interval min must be at most 86400 seconds.'],
  interval_max_too_long: ['Interval max must be at most 86400 seconds.'],
  interval_order: ['Interval min must not be greater than interval max.'],
  cooldown_too_long: ['Recipient cooldown must be at most 8760 hours.'],
  referral_percent_range: ['Referral percent must be between 0 and 100.'],
  withdraw_status_invalid: ['Status must be requested, accepted or rejected.'],
  field_required: ['{label} is required.'],
  field_number: ['{label} must be a number.'],
  field_whole: ['{label} must be a whole number.'],
  field_not_negative: ['{label} must be 0 or more.'],
  field_too_large: ['{label} is too large.'],
  field_at_most: ['{label} must be at most {max}.'],
  // Message templates: the Cloud API template mapping ({name} and {phoneNumber} are the literal placeholders)
  wa_template_name_invalid: ['Nama Template WhatsApp hanya boleh huruf kecil, angka dan garis bawah.'],
  wa_template_name_too_long: ['Nama Template WhatsApp maksimal 512 karakter.'],
  wa_template_language_invalid: ['Bahasa tidak valid (contoh: id, en_US).'],
  wa_template_language_required: ['Bahasa wajib diisi bila Nama Template WhatsApp diisi.'],
  wa_template_params_invalid: ['Parameter template hanya boleh {name} atau {phoneNumber}.'],
  wa_template_params_too_many: ['Maksimal 10 parameter template.'],
  // Files and exports
  invalid_upload: ['Invalid upload.'],
  file_required: ['File wajib diunggah.'],
  one_file_only: ['Only one file, in the field "file", is accepted.'],
  csv_row_too_long: ['A CSV row is too long (an unclosed quote?).'],
  json_rows_invalid: ['The JSON file is not valid: it must be an array of strings or of objects.'],
  json_templates_invalid: ['The JSON file is not valid: it must be an array of templates.'],
  no_data: ['No Data'],
  no_proxies_to_export: ['No Proxys to export.'],
  no_phone_numbers_to_export: ['No phone numbers to export.'],
  request_too_large: ['Request too large'],
  request_timed_out: ['Request timed out'],
  not_available: ['Not available yet'],
  internal: ['Internal server error'],
  // Skip reasons shown in import and validator results
  skip_existing: ['already in the list'],
  skip_repeated: ['repeated in the file'],
  skip_opted_out: ['opted out'],
  skip_invalid_number: ['nomor tidak valid'],
  skip_invalid_proxy: ['invalid proxy'],
} as const satisfies Record<string, readonly string[]>;

export type ErrorCode = keyof typeof ERROR_MESSAGES;
export const ERROR_CODES = Object.keys(ERROR_MESSAGES) as ErrorCode[];

export interface ErrorMatch {
  code: ErrorCode;
  /** The variable parts of a `{name}` message, e.g. `{ label: 'Price' }`. */
  params: Record<string, string>;
}

const exact = new Map<string, ErrorCode>();
const patterns: Array<{ code: ErrorCode; re: RegExp; names: string[] }> = [];
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const code of ERROR_CODES) {
  for (const message of ERROR_MESSAGES[code] as readonly string[]) {
    const names = [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    if (names.length === 0) {
      exact.set(message, code);
      continue;
    }
    const source = message.split(/\{\w+\}/).map(escape).join('([^\\n]{1,200}?)');
    patterns.push({ code, re: new RegExp(`^${source}$`), names });
  }
}

/** Longer than any catalogued message: not worth matching (and keeps matching cheap). */
const MAX_MESSAGE = 500;

/** The stable code of a server message, with its variable parts; undefined for an unknown message. */
export function errorCodeFor(message: string): ErrorMatch | undefined {
  const hit = exact.get(message);
  if (hit) return { code: hit, params: {} };
  if (message.length > MAX_MESSAGE) return undefined;
  for (const p of patterns) {
    const m = p.re.exec(message);
    if (!m) continue;
    const params: Record<string, string> = {};
    p.names.forEach((name, i) => (params[name] = m[i + 1] ?? ''));
    return { code: p.code, params };
  }
  return undefined;
}

/**
 * A skipped row as the console receives it: `reason` stays the stored and exported text (the spec's
 * 'nomor tidak valid'…), `reasonCode` is its stable code, which the screen shows in the active language.
 */
export function withReasonCode<T extends { reason: string }>(row: T): T & { reasonCode?: ErrorCode } {
  const code = errorCodeFor(row.reason)?.code;
  return code === undefined ? row : { ...row, reasonCode: code };
}

export function isErrorCode(v: unknown): v is ErrorCode {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(ERROR_MESSAGES, v);
}
