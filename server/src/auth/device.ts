import crypto from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../context';

/**
 * OWASP's device cookie: a browser that signed in to an account receives a signed token naming that
 * account. While it presents the token, its sign-ins to that account count against a limit of their
 * own (per token) instead of the account's and the address's, so someone guessing from elsewhere, or a
 * whole office behind one address, cannot lock the owner's browser out.
 * https://owasp.org/www-community/Slow_Down_Online_Guessing_Attacks_with_Device_Cookies
 */
export const DEVICE_COOKIE = 'blast_device';
/** One browser may be trusted for a few accounts (an operator with a member test account); the oldest go first. */
const MAX_ENTRIES = 5;
const MAX_AGE_MS = 180 * 24 * 60 * 60 * 1000;
const NONCE_HEX = 32;
const SIG_HEX = 32;
const ENTRY = new RegExp(`^[0-9a-f]{${NONCE_HEX + SIG_HEX}}$`);

const normalEmail = (email: string) => email.trim().toLowerCase();

function signature(key: Uint8Array, email: string, nonce: string): string {
  // A label of its own, so this MAC can never stand for another use of the secret key.
  return crypto.createHmac('sha256', key).update(`device-cookie\0${normalEmail(email)}\0${nonce}`).digest('hex').slice(0, SIG_HEX);
}

function entriesOf(req: Request): string[] {
  const raw = new RegExp(`(?:^|;\\s*)${DEVICE_COOKIE}=([^;]+)`).exec(req.headers.cookie ?? '')?.[1] ?? '';
  return raw
    .split('.')
    .filter((e) => ENTRY.test(e))
    .slice(0, MAX_ENTRIES);
}

function verifies(key: Uint8Array, entry: string, email: string): boolean {
  const given = Buffer.from(entry.slice(NONCE_HEX), 'hex');
  const expected = Buffer.from(signature(key, email, entry.slice(0, NONCE_HEX)), 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** The nonce of the request's device token for this email, or null when it has none that verifies. */
export function trustedDevice(key: Uint8Array, req: Request, email: string): string | null {
  if (!email) return null;
  const entry = entriesOf(req).find((e) => verifies(key, e, email));
  return entry ? entry.slice(0, NONCE_HEX) : null;
}

/**
 * After a complete sign-in (password, and the code when two-factor is on): a fresh token for this
 * account replaces its old one, the other accounts' tokens stay.
 */
export function issueDevice(key: Uint8Array, req: Request, res: Response, email: string): void {
  const others = entriesOf(req).filter((e) => !verifies(key, e, email));
  const nonce = crypto.randomBytes(NONCE_HEX / 2).toString('hex');
  const value = [nonce + signature(key, email, nonce), ...others].slice(0, MAX_ENTRIES).join('.');
  res.cookie(DEVICE_COOKIE, value, { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/api/auth', maxAge: MAX_AGE_MS });
}

export interface DeviceLocals {
  /** The nonce of a device token valid for the email being signed in to. */
  device?: string | null;
}

const emailOf = (req: Request): string => {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? normalEmail(email).slice(0, 320) : '';
};

/** Reads the device token before the limiters, which choose their counts by it. */
export function readDevice(ctx: AppContext): RequestHandler {
  return (req, res, next) => {
    (res.locals as DeviceLocals).device = trustedDevice(ctx.config.secretKey, req, emailOf(req));
    next();
  };
}

export const deviceOf = (res: Response): string | null => (res.locals as DeviceLocals).device ?? null;
