/**
 * Stable error codes: each maps to the message(s) the server answers with today. The server attaches
 * the code to every error answer whose `msg` is listed here; the client shows `t('errors.<code>')`.
 * `{name}` in a message is a variable part (a field label, a limit) passed to the translation.
 * Skip reasons of imports and validators, and the success messages the console shows (withdraw
 * decisions), are listed too, so the client can translate them the same way. A message matches the
 * first entry that fits: exact texts before patterns, patterns in the order below (the broad ones last).
 */
export const ERROR_MESSAGES = {
  // Sign-in, sessions, roles
  token_missing: ['Authorization token is missing'],
  token_invalid: ['Authorization token is missing or invalid'],
  token_expired: ['Invalid or expired token'],
  invalid_credentials: ['Invalid email or password'],
  credentials_required: ['Email and password are required.'],
  sign_in_locked: ['Too many failed sign-in attempts. Please try again in 15 minutes.'],
  sign_up_limited: ['Too many sign-ups from this address. Please try again in an hour.'],
  role_denied: ['Your role cannot use this call'],
  // Two-factor sign-in
  two_factor_code_invalid: ['The code is not correct.'],
  two_factor_code_required: ['Enter the 6-digit code or a recovery code.'],
  two_factor_challenge_expired: ['The sign-in has expired. Please sign in again.'],
  two_factor_already_on: ['Two-factor sign-in is already on.'],
  two_factor_not_started: ['Start the two-factor set-up first.'],
  two_factor_not_on: ['Two-factor sign-in is not on.'],
  two_factor_required_role: ['Your role must sign in with two-factor; it cannot be turned off.'],
  two_factor_setup_required: ['Set up two-factor sign-in first.'],
  password_incorrect: ['The password is not correct.'],
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
  // 'Pendaftaran' (who may sign up)
  signup_closed: ['Sign-up is closed.'],
  referral_required: ['A referral code is required to sign up.'],
  signup_mode_invalid: ['Pendaftaran must be open, referral or closed.'],
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
  export_range_required: ['Choose a date range: from and to, as YYYY-MM-DD.'],
  export_range_order: ['The start date must not be after the end date.'],
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
  amount_digits_only: ['Write the amount in digits only, without separators (10000, not 10.000).'],
  nominal_positive: ['Nominal must be more than 0.'],
  bank_names_required: ['Bank names is required.'],
  colors_invalid: ['Colors must be hex colours separated by comma and space, e.g. #2C2C2C, #3E3A32.'],
  interval_min_too_long: ['Interval min must be at most 86400 seconds.'],
  interval_max_too_long: ['Interval max must be at most 86400 seconds.'],
  interval_order: ['Interval min must not be greater than interval max.'],
  cooldown_too_long: ['Recipient cooldown must be at most 8760 hours.'],
  max_attempts_range: ['Max attempts must be a whole number from 1 to 10.'],
  referral_percent_range: ['Referral percent must be between 0 and 100.'],
  withdraw_status_invalid: ['Status must be requested, accepted or rejected.'],
  field_required: ['{label} is required.'],
  field_too_long: ['{label} is too long.'],
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
  // What Meta says about a saved mapping (warnings of the save, not refusals)
  wa_check_not_found: ['Template WhatsApp "{template}" tidak ditemukan di WABA {waba}.'],
  wa_check_language: ['Template WhatsApp "{template}" di WABA {waba} tidak ada dalam bahasa {language} (ada: {languages}).'],
  wa_check_status: ['Template WhatsApp "{template}" ({language}) di WABA {waba} berstatus {status}, belum APPROVED.'],
  wa_check_params: ['Body template WhatsApp "{template}" ({language}) di WABA {waba} punya {expected} parameter, pemetaan memberi {given}.'],
  wa_check_named: ['Template WhatsApp "{template}" ({language}) di WABA {waba} memakai parameter bernama; konsol hanya mengisi parameter bernomor.'],
  wa_check_token: ['Template WhatsApp tidak dapat diperiksa di WABA {waba}: token akses akun Cloud API tidak valid atau kedaluwarsa.'],
  wa_check_unavailable: ['Template WhatsApp tidak dapat diperiksa di WABA {waba}: Meta tidak dapat dihubungi.'],
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
  request_encoding_unsupported: ['Unsupported request encoding'],
  request_content_type_unsupported: ['Unsupported content type'],
  idempotency_key_invalid: ['Invalid Idempotency-Key header.'],
  idempotency_key_reused: ['This Idempotency-Key was already used for another request.'],
  request_body_invalid: ['Invalid request body'],
  text_nul: ['Text may not contain NUL characters.'],
  request_timed_out: ['Request timed out'],
  not_available: ['Not available yet'],
  internal: ['Internal server error'],
  // Money: bonuses, levels, withdrawals
  field_max: ['{label} paling besar {max}.'],
  bonus_self: ['Anda tidak dapat memberi bonus kepada akun Anda sendiri.'],
  balance_limit: ['Saldo member akan melewati batas {max}.'],
  bonus_delete_negative: ['Bonus tidak dapat dihapus: saldo member akan menjadi minus (Rp {balance}) karena sudah dipakai untuk penarikan.'],
  level_requirement_taken: ['Syarat Minimal Blast sudah dipakai level lain.'],
  withdraw_minimum: ['Minimal permintaan penarikan adalah Rp 10.000'],
  withdraw_nominal_whole: ['Nominal harus bilangan bulat.'],
  withdraw_no_balance: ['Saldo tidak mencukupi untuk permintaan penarikan ini.'],
  withdraw_no_bank: ['Rekening bank belum diisi. Lengkapi data bank Anda di profil terlebih dahulu.'],
  withdraw_own: ['Anda tidak dapat memutuskan permintaan withdraw Anda sendiri.'],
  withdraw_status_change: ['Status {from} tidak dapat diubah menjadi {to}.'],
  withdraw_reopen_no_balance: ['Saldo member tidak mencukupi untuk mengaktifkan kembali permintaan ini.'],
  // Members and profile
  role_unknown: ['Peran tidak dikenal.'],
  profile_self_fields: ['Anda tidak dapat mengubah peran, fee atau interval akun Anda sendiri.'],
  profile_owner_only: ['Data profil hanya dapat diubah oleh pemiliknya.'],
  profile_admin_only: ['Hanya admin yang dapat mengubah peran atau kata sandi pengguna lain.'],
  profile_protected: ['Peran dan kata sandi akun admin atau developer tidak dapat diubah.'],
  profile_role_value: ['Peran hanya dapat diubah menjadi member atau staff.'],
  profile_member_fields: ['Fee dan interval hanya berlaku untuk akun member.'],
  profile_changed_meanwhile: ['Peran, fee atau interval pengguna ini baru saja diubah oleh orang lain. Muat ulang lalu coba lagi.'],
  bank_unavailable: ['Bank tidak tersedia.'],
  account_number_digits: ['Nomor rekening hanya boleh berisi angka.'],
  interval_min_max: ['Interval Min tidak boleh lebih besar dari Interval Max.'],
  // WhatsApp accounts and blasts
  sender_not_found: ['Sender tidak ditemukan'],
  sender_suspended: ['Aturan #1 Jangan hapus pesan terkirim. Silahkan hubungi Admin/CS'],
  no_sendable_targets: ['Tidak ada target yang bisa dikirimi ({skipped} nomor dilewatkan)'],
  blast_no_targets: ['Tidak ada nomor tujuan yang bisa dikirimi saat ini: semua nomor aktif sudah dikirimi dalam masa jeda penerima'],
  schedule_past: ['Waktu jadwal harus paling cepat 1 menit dari sekarang'],
  schedule_far: ['Waktu jadwal paling lama 30 hari dari sekarang'],
  schedule_none: ['Akun ini tidak punya jadwal blast'],
  schedule_at_required: ['Waktu jadwal wajib diisi'],
  send_failed: ['Pesan gagal dikirim ({error})'],
  whatsapp_account_not_found: ['Akun WhatsApp tidak ditemukan'],
  disconnected: ['Sambungan terputus, silahkan sambungkan ulang!'],
  whatsapp_account_required: ['Akun WhatsApp wajib dipilih'],
  whatsapp_client_id_required: ['whatsappClientId wajib diisi'],
  targets_too_many: ['Paling banyak {max} nomor'],
  sender_required: ['Sender wajib dipilih'],
  receiver_required: ['Receiver wajib dipilih'],
  message_too_long: ['Pesan terlalu panjang'],
  message_required: ['Pesan wajib diisi'],
  template_not_mapped: ['Template pesan belum terhubung ke template WhatsApp yang disetujui'],
  no_active_template: ['Tidak ada template pesan yang aktif'],
  cloud_template_refused: ['Template WhatsApp ditolak Meta (tidak ada, dijeda, dinonaktifkan, atau parameternya tidak cocok)'],
  cloud_account_restricted: ['Nomor bisnis ini dibatasi Meta dan tidak dapat mengirim pesan'],
  blast_server_error: ['Blast berhenti karena kesalahan server'],
  session_create_failed: ['Gagal membuat sesi WhatsApp'],
  account_suspended: ['Akun ditangguhkan. Silahkan hubungi Admin/CS'],
  whatsapp_id_taken: ['WhatsApp ID sudah dipakai'],
  qr_expired: ['QR code sudah tidak berlaku, silahkan generate ulang'],
  whatsapp_not_linked: ['Akun WhatsApp belum tertaut, silahkan scan QR code dulu'],
  device_id_invalid: ['deviceId tidak valid'],
  account_status_idle: ["status harus 'idle'; blast dimulai dengan Start Blast"],
  account_interval_too_long: ['Interval paling lama 86400 detik'],
  account_interval_by_admin: ['Interval akun ini diatur oleh admin.'],
  account_interval_too_short: ['Interval tidak boleh lebih singkat dari {min} detik.'],
  account_not_suspended: ['Akun tidak sedang ditangguhkan'],
  account_suspended_too_often: ['Akun sudah {times}x ditangguhkan dan tidak dapat diaktifkan lagi'],
  // Cloud API
  cloud_no_qr: ['Cloud API tidak mendukung QR code'],
  cloud_cannot_check: ['Cloud API tidak dapat memeriksa nomor WhatsApp; gunakan akun yang ditautkan dengan QR code atau nomor'],
  cloud_inactive: ['Cloud API tidak aktif di server ini'],
  cloud_unreachable: ['Cloud API tidak dapat dihubungi, silahkan coba lagi'],
  cloud_phone_number_id_not_found: ['Phone Number ID tidak ditemukan'],
  cloud_waba_not_found: ['WABA ID tidak ditemukan'],
  cloud_not_in_waba: ['Phone Number ID tidak terdaftar di WABA ID ini'],
  cloud_field_digits: ['{label} harus berupa angka'],
  access_token_invalid: ['Token akses tidak valid atau kedaluwarsa'],
  access_token_too_long: ['Token akses terlalu panjang'],
  access_token_required: ['Token akses wajib diisi'],
  webhooks_not_configured: ['Webhooks are not configured'],
  webhook_signature_invalid: ['Invalid signature'],
  // Generators and validators
  job_interval_too_long: ['{label} paling lama {max} detik'],
  field_whole_id: ['{label} harus bilangan bulat 0 atau lebih'],
  job_interval_order: ['Interval minimal harus lebih kecil dari interval maksimal'],
  id_invalid: ['id tidak valid'],
  id_required: ['id wajib diisi'],
  generator_finished: ['Generator sudah selesai'],
  validator_finished: ['Validator sudah selesai'],
  start_number_invalid: ['Target Nomor Awal tidak valid'],
  end_number_invalid: ['Target Nomor Akhir tidak valid'],
  start_number_required: ['Target Nomor Awal wajib diisi'],
  end_number_required: ['Target Nomor Akhir wajib diisi'],
  start_number_reason: ['Target Nomor Awal: {reason}'],
  end_number_reason: ['Target Nomor Akhir: {reason}'],
  range_order: ['Target nomor awal harus lebih kecil dari nomor akhir'],
  range_same_plan: ['Target Nomor Awal dan Akhir harus dari negara yang sama dan sama panjang.'],
  range_too_large: ['Range paling banyak {max} nomor per generator'],
  range_outside_plan: ['Range nomor keluar dari rencana penomoran: {number} bukan nomor yang valid. Pilih range di dalam satu blok nomor yang valid.'],
  range_locked: ['Range nomor tidak dapat diubah setelah generator berjalan'],
  validator_file_too_many: ['File berisi lebih dari {rows} nomor; satu validator paling banyak {max} nomor'],
  file_type_csv_json: ['File harus berformat .csv atau .json', 'File harus berformat .csv atau .json.'],
  validator_json_invalid: ['File JSON tidak valid'],
  validator_json_shape: ['File JSON harus berisi array nomor atau {number, name}'],
  validator_file_empty: ['File tidak berisi nomor'],
  validator_file_required: ['File (.csv atau .json) wajib diunggah'],
  validator_file_too_large: ['Ukuran file paling besar {max} MB'],
  validator_file_field: ['Kirim file pada field "file"'],
  validator_file_on_create: ['File hanya dapat diunggah saat membuat validator'],
  form_invalid: ['Form tidak valid'],
  // Phone numbers and proxies
  phone_required: ['Nomor telepon wajib diisi.'],
  phone_characters: ['Nomor telepon hanya boleh berisi angka, spasi, titik, tanda minus atau + di depan.'],
  phone_invalid_for_country: ['Nomor telepon tidak valid untuk negaranya (periksa kode negara dan jumlah digit).'],
  name_required_id: ['Nama wajib diisi.'],
  max_200_characters: ['Maksimal 200 karakter.'],
  max_500_characters: ['Maksimal 500 karakter.'],
  status_active_nonactive: ['Status harus active atau nonactive.'],
  phone_exists: ['Nomor {number} sudah ada di daftar.'],
  phone_opted_out_create: ['Nomor {number} sudah berhenti berlangganan ({reason}) dan tidak bisa didaftarkan lagi.'],
  phone_opted_out_activate: ['Nomor {number} sudah berhenti berlangganan ({reason}) dan tidak bisa diaktifkan lagi.'],
  optout_exists: ['Nomor {number} sudah ada di daftar berhenti ({reason}).'],
  line_type_invalid: ['line_type harus salah satu dari {types}.'],
  send_state_invalid: ['status harus salah satu dari {states}.'],
  days_invalid: ['days harus bilangan bulat 1–{max}.'],
  user_id_invalid: ['userId tidak valid.'],
  default_country_invalid: ['Kode Negara Default harus kode negara ISO 3166 dua huruf yang dikenal, mis. ID.'],
  send_window_invalid: ['Jam Kirim harus berformat JJ:MM (00:00–23:59), mis. 08:00.'],
  time_zone_invalid: ['Zona Waktu harus nama zona waktu IANA yang dikenal, mis. Asia/Jakarta.'],
  import_too_large_200: ['File terlalu besar: maksimal 200 MB per upload.'],
  import_too_large_5: ['File terlalu besar: maksimal 5 MB per upload.'],
  csv_unclosed_quote: ['File CSV tidak valid: tanda kutip (") di baris ke-{row} tidak ditutup, atau baris itu terlalu panjang.'],
  csv_misplaced_quote: ['File CSV tidak valid: tanda kutip (") di baris ke-{row} diikuti teks lain sebelum pemisah.'],
  csv_too_many_columns: ['File CSV tidak valid: baris ke-{row} punya lebih dari 1000 kolom.'],
  csv_row_long: ['File CSV tidak valid: baris ke-{row} lebih panjang dari 1 MB.'],
  proxy_required: ['Proxy wajib diisi.'],
  proxy_exists: ['Proxy sudah ada di daftar.'],
  proxy_import_too_many: ['Maksimal {max} proxy per file.'],
  proxy_format: ['Format proxy harus host:port atau http|https|socks5://[user:pass@]host:port.'],
  proxy_scheme: ['Skema proxy harus http, https atau socks5.'],
  proxy_login: ['Login proxy harus berbentuk user:pass@.'],
  // Message templates
  buttons_not_array: ['Button harus berupa JSON array.'],
  buttons_too_many: ['Maksimal {max} button.'],
  button_invalid: ['Button ke-{index} tidak valid.'],
  button_field_text: ['Button ke-{index}: {field} harus berupa teks.'],
  button_title_without_url: ['Judul button : "{title}" belum mempunyai URL.'],
  button_url_without_title: ['URL button "{url}" belum punya nama atau judul.'],
  button_type_unknown: ['Jenis button "{type}" tidak dikenal.'],
  button_title_too_long: ['Judul button "{title}" maksimal {max} karakter.'],
  button_url_scheme: ['URL button "{url}" harus diawali http:// atau https://.'],
  button_phone_invalid: ['Nomor telepon button "{phone}" tidak valid.'],
  wa_template_params_max: ['Maksimal {max} parameter template.'],
  media_too_large: ['File terlalu besar: media maksimal 16 MB.'],
  media_type: [
    'Jenis file tidak didukung. Gunakan gambar (jpg, jpeg, png, gif, webp, bmp, svg), video (mp4, 3gp), audio (mp3, ogg, opus, aac, m4a, amr) atau dokumen (pdf, doc, docx, xls, xlsx, ppt, pptx, txt, csv, zip).',
  ],
  json_file_type: ['File harus berformat .json.'],
  caption_too_long: ['Caption terlalu panjang (maksimal 20.000 karakter).'],
  templates_import_too_many: ['Maksimal 1.000 template per file.'],
  template_media_missing: ['Media "{url}" tidak ditemukan di server.'],
  // Phone simulator
  sim_phone_invalid: ['Nomor telepon tidak valid'],
  sim_qr_unknown: ['QR code tidak dikenal atau sudah kedaluwarsa'],
  sim_code_unknown: ['Kode pairing tidak dikenal atau sudah kedaluwarsa'],
  sim_code_other_number: ['Kode pairing ini untuk nomor lain'],
  sim_device_not_found: ['Perangkat tidak ditemukan'],
  sim_device_not_linked: ['Perangkat belum ditautkan'],
  sim_device_logged_out: ['Perangkat sudah keluar (logged out); tautkan ulang'],
  sim_device_not_connected: ['Perangkat tidak terhubung'],
  sim_sender_invalid: ['Nomor pengirim tidak valid'],
  sim_nothing_sent: ['Belum ada pesan terkirim dari perangkat ini'],
  sim_state_invalid: ['state harus connected, disconnected, conflict atau loggedOut'],
  // Cluster
  server_busy: ['Server sedang sibuk, silahkan coba lagi'],
  server_error: ['Terjadi kesalahan'],
  not_implemented: ['Not implemented'],
  // Skip reasons shown in import and validator results
  skip_existing: ['already in the list'],
  skip_repeated: ['repeated in the file'],
  skip_opted_out: ['opted out'],
  skip_invalid_number: ['nomor tidak valid'],
  skip_invalid_proxy: ['invalid proxy'],
  // Success messages the console shows (withdraw decisions)
  withdraw_accepted: ['Permintaan withdraw Diterima'],
  withdraw_rejected: ['Permintaan withdraw Ditolak'],
  withdraw_reopened: ['Permintaan withdraw Dibatalkan'],
  // Broad patterns, matched after every other message
  field_required_id: ['{label} wajib diisi'],
  field_too_long_id: ['{label} terlalu panjang'],
  sender_state: ['{sender} is {state}'],
} as const satisfies Record<string, readonly string[]>;

/**
 * The field labels the server writes into the `{label}` of the patterns above (the spec's words, English
 * or Indonesian), by stable key. The client shows the locale's `errors.labels.<key>` in their place, so
 * an English screen reads 'Minimum Blasts is required.' where the server wrote 'Syarat Minimal Blast', and
 * an Indonesian one 'Harga per Blast' where it wrote 'Price'. A label not listed is shown as written.
 * The server's schemas read the labels of their `{label}` messages from here (the settings form writes
 * the intervals' second spelling), so those labels and their keys cannot drift apart; messages written
 * whole (such as 'Nominal is required.') are entries of the catalogue above and carry their own texts.
 */
export const FIELD_LABELS = {
  interval_min: ['Interval Min', 'Interval min'],
  interval_max: ['Interval Max', 'Interval max'],
  interval: ['Interval'],
  member_fee: ['Fee Whatsapp Blast'],
  level_fee: ['Harga per Blast'],
  requirement_blast: ['Syarat Minimal Blast'],
  price: ['Price'],
  recipient_cooldown: ['Recipient cooldown'],
  referral_percent: ['Referral percent'],
  bank_names: ['Bank names'],
  colors: ['Colors'],
  info: ['Info'],
  nominal: ['Nominal'],
  phone_number_id: ['Phone Number ID'],
  waba_id: ['WABA ID'],
  pairing_code: ['Kode pairing'],
  sender_number: ['Nomor pengirim'],
  phone_number: ['Nomor telepon'],
  qr: ['QR'],
} as const satisfies Record<string, readonly string[]>;

export type FieldLabel = keyof typeof FIELD_LABELS;
const labelKeys = new Map<string, FieldLabel>(Object.entries(FIELD_LABELS).flatMap(([key, texts]) => texts.map((text) => [text, key as FieldLabel] as const)));

/** The stable key of a label the server wrote into a message; undefined for one not listed. */
export function fieldLabelKey(label: string): FieldLabel | undefined {
  return labelKeys.get(label);
}

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
