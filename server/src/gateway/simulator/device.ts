import crypto from 'node:crypto';
import type { DeviceIdentity, LoginMethod, SessionPhase } from '../types';

export interface SimulatorOptions {
  seed: string;
  /** Mean time each network operation takes (jittered ±50 %); 0 answers at once. */
  latencyMs: number;
  /** Share of sends and checks that fail for network reasons (0…1). */
  failureRate: number;
  /** How often a waiting QR is replaced by a new one. */
  qrRotateMs?: number;
  /** How long a linking session accepts a QR scan. */
  qrTtlMs?: number;
  /** How long a pairing code is accepted. */
  codeTtlMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

export interface SentRecord {
  messageId: string;
  to: string;
  text: string;
  date: number;
}

export interface SimDevice {
  id: string;
  phase: SessionPhase;
  login: LoginMethod | null;
  identity: DeviceIdentity | null;
  qr: string | null;
  code: string | null;
  expiresAt: number | null;
  timers: NodeJS.Timeout[];
  lastSent: SentRecord | null;
  proxy: string | null;
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTVWXYZ23456789';

/** A QR payload shaped like WhatsApp Web's: `2@` and four base64 parts. */
export function makeQr(): string {
  const part = (n: number) => crypto.randomBytes(n).toString('base64');
  return `2@${part(18)},${part(32)},${part(32)},${part(16)}`;
}

/** 8 characters without look-alikes (no I, O, U, 0, 1), shown as XXXX-XXXX. */
export function makePairingCode(): string {
  let code = '';
  for (const b of crypto.randomBytes(8)) code += CODE_ALPHABET[b % CODE_ALPHABET.length];
  return code;
}
