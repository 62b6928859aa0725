import { HttpError } from '../../lib/errors';
import type {
  CheckResult,
  ConnectionState,
  DeviceIdentity,
  DeviceSnapshot,
  Gateway,
  GatewayEvent,
  GatewayListener,
  OutgoingMessage,
  SendErrorCode,
  SendResult,
} from '../types';
import { TokenBucket } from './bucket';
import { classify } from './refusals';
import { describeFailure, graphCall } from './graph';
import { lookupTemplates, type TemplateLookup } from './templates';

/** Device ids of Cloud API accounts: `cloud-{phoneNumberId}`. */
export const CLOUD_DEVICE_PREFIX = 'cloud-';
export const isCloudDevice = (deviceId: string) => deviceId.startsWith(CLOUD_DEVICE_PREFIX);
export const cloudDeviceId = (phoneNumberId: string) => `${CLOUD_DEVICE_PREFIX}${phoneNumberId}`;

export const NO_QR_MSG = 'Cloud API tidak mendukung QR code';

/** How the gateway waits between tries of a rate-limited or failed call. */
export interface BackOff {
  /** First wait; each next one doubles, up to maxMs. */
  baseMs: number;
  maxMs: number;
  /** Tries after the first, for rate limits. */
  rateLimitRetries: number;
  /** Tries after the first, for network errors and 5xx answers. */
  networkRetries: number;
}

export interface CloudOptions {
  baseUrl: string;
  /** Sends per second per business number. */
  ratePerSecond: number;
  timeoutMs?: number;
  backOff?: Partial<BackOff>;
  log?: (msg: string, err?: unknown) => void;
  /** The console's public address (PUBLIC_URL): template media are sent as links Graph downloads from it. */
  publicUrl?: string | null;
}

export interface CloudCredentials {
  phoneNumberId: string;
  token: string;
}

interface CloudAccount extends CloudCredentials {
  deviceId: string;
  identity: DeviceIdentity | null;
  state: ConnectionState;
  sent: number;
  failed: number;
  retries: number;
  lastErrors: Array<{ code: string; date: string }>;
}

/** What Graph says about a business number when it is linked. */
export type NumberInfo =
  | { ok: true; displayPhoneNumber: string; verifiedName: string; qualityRating: string | null; messagingTier: string | null }
  | { ok: false; reason: 'token' | 'not_found' | 'unavailable' | 'waba_not_found' | 'not_in_waba' };

const DEFAULT_BACK_OFF: BackOff = { baseMs: 500, maxMs: 8000, rateLimitRetries: 5, networkRetries: 3 };

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * The WhatsApp Business Cloud API as a gateway. An account is a business phone number with its
 * access token, registered by the linking call and at start-up from the saved rows; it is
 * connected while its token works. Sends are approved templates only, throttled per number by a
 * token bucket, with rate limits and network failures retried here with exponential back-off.
 * Number checks do not exist on the Cloud API.
 */
export class CloudApiGateway implements Gateway {
  readonly kind = 'cloud-api' as const;
  private readonly accounts = new Map<string, CloudAccount>();
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly listeners = new Set<GatewayListener>();
  private readonly backOff: BackOff;
  private readonly timeoutMs: number;
  private readonly sleeps = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private closed = false;

  constructor(private readonly options: CloudOptions) {
    this.backOff = { ...DEFAULT_BACK_OFF, ...options.backOff };
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /** Gives the gateway a number's credentials (linking, start-up); the account is connected. */
  register(deviceId: string, credentials: CloudCredentials, identity: DeviceIdentity | null = null, state: ConnectionState = 'connected'): void {
    const existing = this.accounts.get(deviceId);
    this.accounts.set(deviceId, {
      deviceId,
      phoneNumberId: credentials.phoneNumberId,
      token: credentials.token,
      identity: identity ?? existing?.identity ?? null,
      state,
      sent: existing?.sent ?? 0,
      failed: existing?.failed ?? 0,
      retries: existing?.retries ?? 0,
      lastErrors: existing?.lastErrors ?? [],
    });
  }

  /**
   * Whether the number is one of the WhatsApp Business Account's (GET /{waba-id}/phone_numbers), so
   * an account is never saved under a WABA it does not belong to. Pages of numbers are followed by
   * their `after` cursor (a WABA holds a handful of numbers; at most 20 pages are read).
   */
  async numberInWaba(credentials: CloudCredentials, wabaId: string): Promise<{ ok: true } | { ok: false; reason: 'token' | 'waba_not_found' | 'not_in_waba' | 'unavailable' }> {
    let after: string | null = null;
    for (let page = 0; page < 20; page += 1) {
      const answer = await graphCall(this.options.baseUrl, {
        method: 'GET',
        path: `/${encodeURIComponent(wabaId)}/phone_numbers?fields=id&limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        token: credentials.token,
        timeoutMs: this.timeoutMs,
      });
      if (!answer.ok) {
        if (answer.kind === 'graph') {
          if (answer.status === 401 || answer.code === 190) return { ok: false, reason: 'token' };
          if (answer.status === 404 || answer.code === 100 || answer.code === 803 || answer.code === 200) return { ok: false, reason: 'waba_not_found' };
        }
        this.options.log?.(`Graph did not answer the WABA check of ${wabaId}: ${describeFailure(answer)}`);
        return { ok: false, reason: 'unavailable' };
      }
      const data = Array.isArray(answer.body.data) ? (answer.body.data as Array<Record<string, unknown>>) : [];
      if (data.some((n) => str(n.id) === credentials.phoneNumberId)) return { ok: true };
      const paging = answer.body.paging as { next?: unknown; cursors?: { after?: unknown } } | undefined;
      after = typeof paging?.next === 'string' ? (str(paging.cursors?.after) ?? null) : null;
      if (!after) break;
    }
    return { ok: false, reason: 'not_in_waba' };
  }

  async verifyNumber(credentials: CloudCredentials): Promise<NumberInfo> {
    const answer = await graphCall(this.options.baseUrl, {
      method: 'GET',
      path: `/${encodeURIComponent(credentials.phoneNumberId)}?fields=display_phone_number,verified_name,quality_rating,messaging_limit_tier`,
      token: credentials.token,
      timeoutMs: this.timeoutMs,
    });
    if (answer.ok) {
      const display = str(answer.body.display_phone_number);
      if (!display) return { ok: false, reason: 'not_found' };
      return {
        ok: true,
        displayPhoneNumber: display,
        verifiedName: str(answer.body.verified_name) ?? '',
        qualityRating: str(answer.body.quality_rating),
        messagingTier: str(answer.body.messaging_limit_tier),
      };
    }
    if (answer.kind === 'graph') {
      if (answer.status === 401 || answer.code === 190) return { ok: false, reason: 'token' };
      if (answer.status === 404 || answer.code === 100 || answer.code === 803) return { ok: false, reason: 'not_found' };
    }
    this.options.log?.(`Graph did not answer the number check of ${credentials.phoneNumberId}: ${describeFailure(answer)}`);
    return { ok: false, reason: 'unavailable' };
  }

  /** What Graph says now about a registered number, with the credentials it was registered with. */
  async registeredNumber(deviceId: string): Promise<NumberInfo> {
    const a = this.accounts.get(deviceId);
    if (!a) return { ok: false, reason: 'not_found' };
    return this.verifyNumber({ phoneNumberId: a.phoneNumberId, token: a.token });
  }

  /**
   * The templates named `name` under a WABA, asked with a registered number's token (the gateway's
   * timeout; `signal` may end it sooner). A number that is not connected is not asked for: its token
   * expired or it is gone.
   */
  async templatesOf(deviceId: string, wabaId: string, name: string, signal?: AbortSignal): Promise<TemplateLookup> {
    const a = this.accounts.get(deviceId);
    if (!a || a.state !== 'connected') return { ok: false, reason: 'token' };
    return lookupTemplates(this.options.baseUrl, { token: a.token, wabaId, name, timeoutMs: this.timeoutMs, signal }, this.options.log);
  }

  /** How long one call to Graph may take. */
  get callTimeoutMs(): number {
    return this.timeoutMs;
  }

  on(listener: GatewayListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: GatewayEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (err) {
        this.options.log?.('A gateway listener failed', err);
      }
    }
  }

  async startSession(): Promise<DeviceSnapshot> {
    throw new HttpError(409, NO_QR_MSG);
  }

  async reconnect(): Promise<ConnectionState> {
    throw new HttpError(409, NO_QR_MSG);
  }

  /** Re-opens a saved account's identity and state; its credentials come through register(). */
  restoreSession(deviceId: string, identity: DeviceIdentity, state: ConnectionState): void {
    const account = this.accounts.get(deviceId);
    if (!account) return;
    account.identity = identity;
    account.state = state === 'loggedOut' ? 'loggedOut' : 'connected';
  }

  async logout(deviceId: string): Promise<void> {
    if (this.accounts.delete(deviceId)) this.emit({ type: 'disconnected', deviceId, reason: 'loggedOut' });
  }

  removeSession(deviceId: string): void {
    this.accounts.delete(deviceId);
  }

  private snapshotOf(a: CloudAccount): DeviceSnapshot {
    return { deviceId: a.deviceId, phase: a.state, identity: a.identity, qr: null, code: null, expiresAt: null };
  }

  snapshot(deviceId: string): DeviceSnapshot | null {
    const a = this.accounts.get(deviceId);
    return a ? this.snapshotOf(a) : null;
  }

  sessions(): DeviceSnapshot[] {
    return [...this.accounts.values()].map((a) => this.snapshotOf(a));
  }

  /** The developer monitor's view: never the token. */
  inspect(deviceId: string): Record<string, unknown> | null {
    const a = this.accounts.get(deviceId);
    if (!a) return null;
    const bucket = this.buckets.get(a.phoneNumberId);
    return {
      gateway: 'cloud-api',
      deviceId,
      phoneNumberId: a.phoneNumberId,
      state: a.state,
      identity: a.identity,
      stats: { sent: a.sent, failed: a.failed, retries: a.retries, waitingForRate: bucket?.waiting ?? 0 },
      lastErrors: a.lastErrors,
    };
  }

  state(deviceId: string): ConnectionState | null {
    return this.accounts.get(deviceId)?.state ?? null;
  }

  async checkNumber(): Promise<CheckResult> {
    // The Cloud API has no way to ask whether a number has WhatsApp.
    return { ok: false, error: 'failed' };
  }

  private bucket(phoneNumberId: string): TokenBucket {
    let b = this.buckets.get(phoneNumberId);
    if (!b) {
      b = new TokenBucket(this.options.ratePerSecond);
      this.buckets.set(phoneNumberId, b);
    }
    return b;
  }

  /** Waits `ms`, or less when the gateway closes or `signal` aborts. */
  private sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.closed || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(entry.timer);
        this.sleeps.delete(entry);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const entry = { timer: setTimeout(done, ms), resolve: done };
      this.sleeps.add(entry);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private delayFor(attempt: number): number {
    return Math.min(this.backOff.maxMs, this.backOff.baseMs * 2 ** attempt);
  }

  private failed(a: CloudAccount, code: SendErrorCode): SendResult {
    a.failed += 1;
    a.lastErrors = [...a.lastErrors.slice(-9), { code, date: new Date().toISOString() }];
    return { ok: false, error: code };
  }

  private expire(a: CloudAccount): void {
    if (a.state === 'loggedOut') return;
    a.state = 'loggedOut';
    this.options.log?.(`The Cloud API token of ${a.phoneNumberId} expired or was revoked`);
    this.emit({ type: 'connection.update', deviceId: a.deviceId, state: 'loggedOut' });
  }

  async send(deviceId: string, message: OutgoingMessage, signal?: AbortSignal): Promise<SendResult> {
    const a = this.accounts.get(deviceId);
    if (!a) return { ok: false, error: 'unknown_device' };
    if (a.state !== 'connected') return { ok: false, error: a.state === 'loggedOut' ? 'token_expired' : 'not_connected' };
    if (!/^\d{8,15}$/.test(message.to)) return { ok: false, error: 'invalid_number' };
    // An approved template (blasts); without one, plain text (the Blaster), which Meta delivers only within
    // 24 hours of the receiver's last message to the number and otherwise refuses (131047, re-engagement).
    const payload = message.template
      ? {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: message.to,
          type: 'template',
          template: { name: message.template.name, language: { code: message.template.language }, components: templateComponents(message, this.options.publicUrl ?? null) },
        }
      : { messaging_product: 'whatsapp', recipient_type: 'individual', to: message.to, type: 'text', text: { body: message.text, preview_url: false } };
    let rateTries = 0;
    let networkTries = 0;
    for (;;) {
      await this.bucket(a.phoneNumberId).take();
      if (this.closed) return this.failed(a, 'failed');
      if (a.state !== 'connected') return this.failed(a, a.state === 'loggedOut' ? 'token_expired' : 'not_connected');
      const answer = await graphCall(this.options.baseUrl, {
        method: 'POST',
        path: `/${encodeURIComponent(a.phoneNumberId)}/messages`,
        token: a.token,
        body: payload,
        timeoutMs: this.timeoutMs,
      });
      if (answer.ok) {
        const first = Array.isArray(answer.body.messages) ? (answer.body.messages[0] as { id?: unknown } | undefined) : undefined;
        const id = str(first?.id);
        if (!id) return this.failed(a, 'failed');
        a.sent += 1;
        return { ok: true, messageId: id, date: new Date() };
      }
      const outcome = classify(answer);
      // A stopped blast does not wait for another try: the last refusal is its answer.
      if (outcome === 'retry-rate') {
        if (rateTries >= this.backOff.rateLimitRetries || signal?.aborted) return this.failed(a, 'rate_limited');
        a.retries += 1;
        await this.sleep(this.delayFor(rateTries++), signal);
        if (signal?.aborted) return this.failed(a, 'rate_limited');
        continue;
      }
      if (outcome === 'retry-network') {
        const failure: SendErrorCode = answer.kind === 'network' && answer.timeout ? 'timeout' : 'failed';
        if (networkTries >= this.backOff.networkRetries || signal?.aborted) {
          this.options.log?.(`Cloud API send from ${a.phoneNumberId} failed: ${describeFailure(answer)}`);
          return this.failed(a, failure);
        }
        a.retries += 1;
        await this.sleep(this.delayFor(networkTries++), signal);
        if (signal?.aborted) return this.failed(a, failure);
        continue;
      }
      if (outcome === 'token_expired') this.expire(a);
      return this.failed(a, outcome);
    }
  }

  close(): void {
    this.closed = true;
    for (const s of this.sleeps) {
      clearTimeout(s.timer);
      s.resolve();
    }
    this.sleeps.clear();
    for (const b of this.buckets.values()) b.close();
    this.listeners.clear();
  }
}

const MEDIA_KIND: Array<[RegExp, 'image' | 'video' | 'document']> = [
  [/\.(jpe?g|png|webp)$/i, 'image'],
  [/\.(mp4|3gpp?)$/i, 'video'],
];

/**
 * The approved template's components for one send: the header's media (the console template's file, at
 * the server's public address, which Graph downloads), the body parameters, and a payload for each quick
 * reply (the console's reply and stop buttons, by their position among the template's buttons), so a
 * press comes back through the webhook with the console's button id and a stop press opts the number out.
 * URL and call buttons are fixed in the approved template and take no parameter.
 */
export function templateComponents(message: OutgoingMessage, publicUrl: string | null): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const media = message.mediaUrl;
  if (media && publicUrl) {
    const link = /^https?:\/\//i.test(media) ? media : `${publicUrl.replace(/\/+$/, '')}${media.startsWith('/') ? '' : '/'}${media}`;
    const kind = MEDIA_KIND.find(([re]) => re.test(media))?.[1] ?? 'document';
    out.push({ type: 'header', parameters: [{ type: kind, [kind]: { link } }] });
  }
  const bodyParams = message.template?.bodyParams ?? [];
  if (bodyParams.length) out.push({ type: 'body', parameters: bodyParams.map((text) => ({ type: 'text', text })) });
  (message.buttons ?? []).forEach((button, index) => {
    if (button.type !== 'reply_button' && button.type !== 'stop_button') return;
    out.push({ type: 'button', sub_type: 'quick_reply', index: String(index), parameters: [{ type: 'payload', payload: button.id }] });
  });
  return out;
}
