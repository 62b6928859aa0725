import type {
  CheckResult,
  ConnectionState,
  DeviceIdentity,
  DeviceSnapshot,
  Gateway,
  GatewayEvent,
  GatewayListener,
  LoginMethod,
  OutgoingMessage,
  SendErrorCode,
  SendResult,
  SessionPhase,
} from '../types';
export type { SentRecord, SimDevice, SimulatorOptions } from './device';
import { makePairingCode, makeQr, type SimDevice, type SimulatorOptions } from './device';
import { Inboxes } from './inboxes';
import { isWellFormedNumber, seededRandom, simContact, type SimContact } from './network';

interface DeviceStats {
  sent: number;
  failed: number;
  checks: number;
  received: number;
  revokes: number;
  lastErrors: Array<{ code: string; date: string }>;
}

const NETWORK_FAILURES: SendErrorCode[] = ['timeout', 'rate_limited', 'failed'];
/** Share of delivered messages the simulated recipients read, and the least time before they do. */
export const READ_SHARE = 0.6;
export const READ_AFTER_MS = 1500;

/**
 * The in-process model of WhatsApp: sessions, linking by QR or pairing code, sends, number checks,
 * inbound replies and revokes, all deterministic under the seed. The simulated phone (/sim) drives
 * the phone side through SimPhone.
 */
export class SimulatorGateway implements Gateway {
  readonly kind = 'simulator' as const;
  readonly inboxes = new Inboxes();
  private readonly devices = new Map<string, SimDevice>();
  private readonly byQr = new Map<string, string>();
  private readonly byCode = new Map<string, string>();
  /** Numbers of linked devices: they are on WhatsApp whatever the hash says. */
  private readonly linked = new Map<string, string>();
  private readonly listeners = new Set<GatewayListener>();
  private readonly failRoll: () => number;
  private readonly jitter: () => number;
  private messageSeq = 0;
  /** Message ids stay unique across restarts (the log keeps them to match delivery reports). */
  private readonly messageBase = Date.now().toString(16).toUpperCase().padStart(11, '0');
  private readonly readRoll: () => number;
  /** Per-device traffic counters for the developer monitor; kept across re-links of the same id. */
  private readonly stats = new Map<string, DeviceStats>();
  private closed = false;
  readonly qrRotateMs: number;
  readonly qrTtlMs: number;
  readonly codeTtlMs: number;

  constructor(readonly options: SimulatorOptions) {
    this.failRoll = seededRandom(`${options.seed}|failures`);
    this.jitter = seededRandom(`${options.seed}|latency`);
    this.readRoll = seededRandom(`${options.seed}|read`);
    this.qrRotateMs = options.qrRotateMs ?? 20_000;
    this.qrTtlMs = options.qrTtlMs ?? 60_000;
    this.codeTtlMs = options.codeTtlMs ?? 90_000;
  }

  get seed(): string {
    return this.options.seed;
  }

  on(listener: GatewayListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: GatewayEvent): void {
    if (event.type === 'message') this.statsOf(event.deviceId).received += 1;
    else if (event.type === 'revoke') this.statsOf(event.deviceId).revokes += 1;
    else if (event.type === 'error') this.noteError(event.deviceId, event.message);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.options.log?.('Gateway listener failed', err);
      }
    }
  }

  /** Whether a number is on the simulated network, counting linked devices' own numbers. */
  contact(number: string): SimContact {
    const own = this.linked.get(number);
    return own !== undefined ? { registered: true, pushname: own } : simContact(number, this.options.seed);
  }

  private delay(): Promise<void> {
    const ms = this.options.latencyMs;
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => setTimeout(resolve, Math.round(ms * (0.5 + this.jitter()))));
  }

  /** Runs fn after one network latency, unless the device has been replaced meanwhile. */
  later(device: SimDevice, fn: () => void): void {
    void this.delay().then(() => {
      if (!this.closed && this.devices.get(device.id) === device) fn();
    });
  }

  private clearLinking(device: SimDevice): void {
    for (const t of device.timers) clearTimeout(t);
    device.timers = [];
    if (device.qr) this.byQr.delete(device.qr);
    if (device.code) this.byCode.delete(device.code);
    device.qr = null;
    device.code = null;
    device.expiresAt = null;
  }

  private newQr(device: SimDevice): void {
    if (device.qr) this.byQr.delete(device.qr);
    device.qr = makeQr();
    this.byQr.set(device.qr, device.id);
    this.emit({ type: 'qr', deviceId: device.id, qr: device.qr });
  }

  private newCode(device: SimDevice): void {
    const code = makePairingCode();
    device.code = code;
    this.byCode.set(code, device.id);
    this.emit({ type: 'pairing-code', deviceId: device.id, code });
  }

  private timer(device: SimDevice, ms: number, fn: () => void): void {
    const t = setTimeout(fn, ms);
    t.unref();
    device.timers.push(t);
  }

  async startSession(deviceId: string, login: LoginMethod, options: { proxy?: string | null } = {}): Promise<DeviceSnapshot> {
    const previous = this.devices.get(deviceId);
    if (previous) this.clearLinking(previous);
    const device: SimDevice = {
      id: deviceId,
      phase: login.method,
      login,
      identity: null,
      qr: null,
      code: null,
      expiresAt: null,
      timers: [],
      lastSent: null,
      proxy: options.proxy ?? null,
    };
    this.devices.set(deviceId, device);
    await this.delay();
    if (this.devices.get(deviceId) !== device) return this.snapshotOf(device);
    const ttl = login.method === 'qr' ? this.qrTtlMs : this.codeTtlMs;
    device.expiresAt = Date.now() + ttl;
    if (login.method === 'qr') {
      this.newQr(device);
      const rotate = () => {
        if (device.phase !== 'qr') return;
        this.newQr(device);
        this.timer(device, this.qrRotateMs, rotate);
      };
      if (this.qrRotateMs < ttl) this.timer(device, this.qrRotateMs, rotate);
    } else {
      this.newCode(device);
    }
    this.timer(device, ttl, () => {
      if (device.phase !== 'qr' && device.phase !== 'code') return;
      this.clearLinking(device);
      device.phase = 'expired';
      this.emit({ type: 'disconnected', deviceId, reason: 'expired' });
    });
    return this.snapshotOf(device);
  }

  restoreSession(deviceId: string, identity: DeviceIdentity, state: ConnectionState): void {
    const existing = this.devices.get(deviceId);
    if (existing) this.clearLinking(existing);
    this.devices.set(deviceId, {
      id: deviceId,
      phase: state,
      login: null,
      identity,
      qr: null,
      code: null,
      expiresAt: null,
      timers: [],
      lastSent: existing?.lastSent ?? null,
      proxy: existing?.proxy ?? null,
    });
    this.linked.set(identity.phonenumber, identity.pushname);
  }

  async reconnect(deviceId: string): Promise<ConnectionState> {
    const device = this.devices.get(deviceId);
    if (!device?.identity || device.phase === 'loggedOut') return 'loggedOut';
    await this.delay();
    if (this.devices.get(deviceId) !== device || (device.phase as SessionPhase) === 'loggedOut') return 'loggedOut';
    this.setState(device, 'connected');
    return 'connected';
  }

  /** Moves a linked device to a connection state and tells the listeners. */
  setState(device: SimDevice, state: ConnectionState): void {
    device.phase = state;
    this.emit({ type: 'connection.update', deviceId: device.id, state });
    if (state === 'loggedOut') this.emit({ type: 'disconnected', deviceId: device.id, reason: 'loggedOut' });
  }

  /** The phone completed linking (QR scanned or pairing code entered). */
  link(device: SimDevice, identity: DeviceIdentity): void {
    this.clearLinking(device);
    device.phase = 'authenticated';
    device.identity = identity;
    this.linked.set(identity.phonenumber, identity.pushname);
    this.emit({ type: 'authenticated', deviceId: device.id, identity });
    this.later(device, () => {
      if (device.phase === 'authenticated') this.setState(device, 'connected');
    });
  }

  async logout(deviceId: string): Promise<void> {
    const device = this.devices.get(deviceId);
    if (!device) return;
    this.clearLinking(device);
    if (device.identity && device.phase !== 'loggedOut') this.setState(device, 'loggedOut');
    this.devices.delete(deviceId);
  }

  removeSession(deviceId: string): void {
    const device = this.devices.get(deviceId);
    if (!device) return;
    this.clearLinking(device);
    this.devices.delete(deviceId);
    this.emit({ type: 'disconnected', deviceId, reason: 'removed' });
  }

  device(deviceId: string): SimDevice | undefined {
    return this.devices.get(deviceId);
  }

  allDevices(): SimDevice[] {
    return [...this.devices.values()];
  }

  deviceByQr(qr: string): SimDevice | undefined {
    const id = this.byQr.get(qr);
    return id ? this.devices.get(id) : undefined;
  }

  deviceByCode(code: string): SimDevice | undefined {
    const id = this.byCode.get(code);
    return id ? this.devices.get(id) : undefined;
  }

  snapshotOf(device: SimDevice): DeviceSnapshot {
    return {
      deviceId: device.id,
      phase: device.phase,
      identity: device.identity,
      qr: device.qr,
      code: device.code,
      expiresAt: device.expiresAt === null ? null : new Date(device.expiresAt),
    };
  }

  snapshot(deviceId: string): DeviceSnapshot | null {
    const device = this.devices.get(deviceId);
    return device ? this.snapshotOf(device) : null;
  }

  state(deviceId: string): ConnectionState | null {
    const device = this.devices.get(deviceId);
    if (!device?.identity) return null;
    return device.phase === 'authenticated' ? 'unknown' : (device.phase as ConnectionState);
  }

  nextMessageId(): string {
    this.messageSeq += 1;
    return `3EB0${this.messageBase}${this.messageSeq.toString(16).toUpperCase().padStart(8, '0')}`;
  }

  /**
   * A sent message is reported delivered after one network latency, and READ_SHARE of them read a few
   * latencies (at least READ_AFTER_MS) later, so a blast on the simulator shows the whole funnel.
   */
  private reportDelivery(device: SimDevice, messageId: string): void {
    this.later(device, () => {
      this.emit({ type: 'status', deviceId: device.id, messageId, status: 'delivered', date: new Date() });
      if (this.readRoll() >= READ_SHARE) return;
      const wait = Math.max(READ_AFTER_MS, 3 * this.options.latencyMs);
      setTimeout(() => {
        if (!this.closed && this.devices.get(device.id) === device) this.emit({ type: 'status', deviceId: device.id, messageId, status: 'read', date: new Date() });
      }, wait).unref();
    });
  }

  private networkFailure(): SendErrorCode | null {
    if (this.options.failureRate <= 0) return null;
    const roll = this.failRoll();
    if (roll >= this.options.failureRate) return null;
    return NETWORK_FAILURES[Math.floor((roll / this.options.failureRate) * NETWORK_FAILURES.length)] ?? 'failed';
  }

  private statsOf(deviceId: string): DeviceStats {
    let stats = this.stats.get(deviceId);
    if (!stats) {
      stats = { sent: 0, failed: 0, checks: 0, received: 0, revokes: 0, lastErrors: [] };
      this.stats.set(deviceId, stats);
    }
    return stats;
  }

  private noteError(deviceId: string, code: string): void {
    const stats = this.statsOf(deviceId);
    stats.lastErrors.unshift({ code, date: new Date().toISOString() });
    if (stats.lastErrors.length > 10) stats.lastErrors.length = 10;
  }

  sessions(): DeviceSnapshot[] {
    return [...this.devices.values()].map((d) => this.snapshotOf(d));
  }

  inspect(deviceId: string): Record<string, unknown> | null {
    const device = this.devices.get(deviceId);
    if (!device) return null;
    return {
      session: {
        ...this.snapshotOf(device),
        login: device.login,
        proxy: device.proxy,
        lastSent: device.lastSent ? { ...device.lastSent, date: new Date(device.lastSent.date).toISOString() } : null,
        linkingTimers: device.timers.length,
      },
      traffic: this.statsOf(deviceId),
      network: { seed: this.options.seed, latencyMs: this.options.latencyMs, failureRate: this.options.failureRate },
    };
  }

  async send(deviceId: string, message: OutgoingMessage): Promise<SendResult> {
    const result = await this.deliver(deviceId, message);
    const stats = this.statsOf(deviceId);
    if (result.ok) stats.sent += 1;
    else {
      stats.failed += 1;
      this.noteError(deviceId, result.error);
    }
    return result;
  }

  private async deliver(deviceId: string, message: OutgoingMessage): Promise<SendResult> {
    const device = this.devices.get(deviceId);
    if (!device) return { ok: false, error: 'unknown_device' };
    if (device.phase !== 'connected' || !device.identity) return { ok: false, error: 'not_connected' };
    if (!isWellFormedNumber(message.to)) return { ok: false, error: 'invalid_number' };
    await this.delay();
    if (device.phase !== 'connected' || this.devices.get(deviceId) !== device) return { ok: false, error: 'not_connected' };
    if (!this.contact(message.to).registered) return { ok: false, error: 'not_registered' };
    const failure = this.networkFailure();
    if (failure) return { ok: false, error: failure };
    const messageId = this.nextMessageId();
    const now = Date.now();
    this.inboxes.add(message.to, {
      id: messageId,
      from: device.identity.phonenumber,
      text: message.text,
      date: now,
      mediaUrl: message.mediaUrl ?? null,
      buttons: (message.buttons ?? []).map((b) => ({ id: b.id, title: b.title, type: b.type })),
      revoked: false,
    });
    device.lastSent = { messageId, to: message.to, text: message.text, date: now };
    this.reportDelivery(device, messageId);
    return { ok: true, messageId, date: new Date(now) };
  }

  async checkNumber(deviceId: string, number: string): Promise<CheckResult> {
    this.statsOf(deviceId).checks += 1;
    const device = this.devices.get(deviceId);
    if (!device) return { ok: false, error: 'unknown_device' };
    if (device.phase !== 'connected') return { ok: false, error: 'not_connected' };
    if (!isWellFormedNumber(number)) return { ok: false, error: 'invalid_number' };
    await this.delay();
    if (device.phase !== 'connected') return { ok: false, error: 'not_connected' };
    const failure = this.networkFailure();
    if (failure && failure !== 'not_registered') return { ok: false, error: failure };
    const contact = this.contact(number);
    return { ok: true, registered: contact.registered, pushname: contact.pushname };
  }

  close(): void {
    this.closed = true;
    for (const device of this.devices.values()) this.clearLinking(device);
    this.devices.clear();
    this.listeners.clear();
  }
}
