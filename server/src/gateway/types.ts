/**
 * The one boundary between the product and WhatsApp. Everything that links, watches or uses a
 * WhatsApp account goes through a `Gateway`; the simulator in ./simulator is the shipped implementation.
 *
 * Device ids are the account's WhatsApp ID (`clientid`, `id-{timestamp}-{0-9999}`).
 */

/** Connection state of a linked account, in the words the account rows use. */
export type ConnectionState = 'connected' | 'disconnected' | 'conflict' | 'loggedOut' | 'unknown';

/**
 * The life of a device session: a linking session waits for a QR scan or a pairing code, then is
 * authenticated and connected; a linking session nobody completes in time expires.
 */
export type SessionPhase = 'qr' | 'code' | 'authenticated' | 'expired' | ConnectionState;

/** Who a linked device is, as WhatsApp reports it after linking. */
export interface DeviceIdentity {
  phonenumber: string;
  pushname: string;
  /** 'c.us' for personal accounts. */
  server: string;
  /** `{phonenumber}@{server}`. */
  serialized: string;
}

export type LoginMethod = { method: 'qr' } | { method: 'code'; phoneNumber: string };

export interface MessageButton {
  id: string;
  title: string;
  type: 'reply_button' | 'call_button' | 'url_button' | 'stop_button';
  url?: string | null;
}

export interface OutgoingMessage {
  /** Recipient number, digits in international form (628…). */
  to: string;
  text: string;
  mediaUrl?: string | null;
  buttons?: MessageButton[];
  /**
   * The approved Cloud API template the console template maps to (Cloud API accounts send only
   * these): its name, language and the body parameters already filled in for this recipient.
   */
  template?: { name: string; language: string; bodyParams: string[] } | null;
}

/** Why a send failed. Callers log the code; none of them is retried by the gateway itself. */
export type SendErrorCode =
  | 'not_connected' // the device is not linked and connected
  | 'unknown_device' // no session with this id
  | 'invalid_number' // not 8–15 digits
  | 'not_registered' // the number has no WhatsApp account
  | 'timeout'
  | 'rate_limited'
  /** Cloud API: the access token expired or was revoked (the account is logged out). */
  | 'token_expired'
  /** Cloud API: outside the 24-hour window and not an approved template (re-engagement, 131047). */
  | 'reengagement'
  /**
   * Cloud API: Meta refuses the approved template itself (missing, paused, disabled, or the mapping's
   * parameters or buttons do not fit it): every send of it fails alike.
   */
  | 'no_template'
  /** Cloud API: Meta refuses every send from the business number (locked, payment, policy block, permission). */
  | 'account_restricted'
  | 'failed';

export type SendResult = { ok: true; messageId: string; date: Date } | { ok: false; error: SendErrorCode };

export type CheckResult =
  | { ok: true; registered: boolean; pushname: string | null }
  | { ok: false; error: Exclude<SendErrorCode, 'not_registered'> };

export type GatewayEvent =
  | { type: 'qr'; deviceId: string; qr: string }
  | { type: 'pairing-code'; deviceId: string; code: string }
  | { type: 'authenticated'; deviceId: string; identity: DeviceIdentity }
  | { type: 'connection.update'; deviceId: string; state: ConnectionState }
  /** The session ended: linking expired, the phone logged the device out, or it was removed. */
  | { type: 'disconnected'; deviceId: string; reason: 'expired' | 'loggedOut' | 'removed' }
  /** A message a number sent to the account (a reply or a button press). */
  | { type: 'message'; deviceId: string; messageId: string; from: string; text: string; buttonId: string | null; date: Date }
  /**
   * How far a sent message got, as the network reports it later (the simulator's delivery reports; Cloud
   * API statuses come through the webhooks instead).
   */
  | { type: 'status'; deviceId: string; messageId: string; status: 'delivered' | 'read'; date: Date }
  /** The account's owner deleted a message the account had sent. */
  | { type: 'revoke'; deviceId: string; messageId: string; to: string; date: Date }
  /** Something went wrong inside a session; shown to the person linking it. */
  | { type: 'error'; deviceId: string; message: string };

export type GatewayListener = (event: GatewayEvent) => void;

export interface DeviceSnapshot {
  deviceId: string;
  phase: SessionPhase;
  identity: DeviceIdentity | null;
  /** The QR string shown now (QR login while waiting). */
  qr: string | null;
  /** The pairing code shown now, 8 characters (number login while waiting). */
  code: string | null;
  /** When the QR or pairing code stops being accepted. */
  expiresAt: Date | null;
}

export interface Gateway {
  readonly kind: 'simulator' | 'cloud-api';

  /**
   * Starts linking a device: emits `qr` (rotating) or `pairing-code`, then `authenticated` and
   * `connection.update` once the phone completes it, or `disconnected` (expired). Starting again
   * with the same id replaces the earlier linking session.
   */
  startSession(deviceId: string, login: LoginMethod, options?: { proxy?: string | null }): Promise<DeviceSnapshot>;

  /** Re-opens a session saved earlier (after a restart), in the state it was left in. */
  restoreSession(deviceId: string, identity: DeviceIdentity, state: ConnectionState): void;

  /** Reconnects a known session in place (after a conflict); resolves with the new state. */
  reconnect(deviceId: string): Promise<ConnectionState>;

  /** Logs the device out on WhatsApp's side and forgets it. */
  logout(deviceId: string): Promise<void>;

  /** Forgets a session without telling WhatsApp (abandoned linking sessions). */
  removeSession(deviceId: string): void;

  snapshot(deviceId: string): DeviceSnapshot | null;

  /** Every session the gateway holds, linking or linked. */
  sessions(): DeviceSnapshot[];

  /** The gateway's own diagnostic record of one device (developer monitor), or null when unknown. */
  inspect(deviceId: string): Record<string, unknown> | null;

  /** The connection state of a linked device, or null when the gateway has no such session. */
  state(deviceId: string): ConnectionState | null;

  /**
   * Sends one message. `signal` aborts waits between tries (a blast stopped): a gateway that retries
   * answers the last refusal at once instead of waiting for another try.
   */
  send(deviceId: string, message: OutgoingMessage, signal?: AbortSignal): Promise<SendResult>;

  /** Whether a number has WhatsApp, asked through a connected device (generator, validator). */
  checkNumber(deviceId: string, number: string): Promise<CheckResult>;

  /** Subscribes to every device's events; returns the unsubscribe function. */
  on(listener: GatewayListener): () => void;

  /** Stops timers; the gateway is unusable afterwards. */
  close(): void;
}
