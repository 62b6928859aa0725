import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) => Promise<Buffer>;

/**
 * scrypt runs on the libuv thread pool, off the event loop. At most two hashes run at once, so a
 * burst of sign-ins neither fills the pool (token checks and file reads use it too) nor takes every
 * core from the thread that answers requests; the rest wait their turn.
 */
const MAX_PARALLEL_HASHES = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function scrypt(pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions): Promise<Buffer> {
  // A finishing hash hands its slot straight to the next waiter, so never more than two run.
  if (running >= MAX_PARALLEL_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await scryptAsync(pw, salt, len, opts);
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}
const PARAMS = { N: 16384, r: 8, p: 1 };
const KEYLEN = 32;

/** `scrypt$N$r$p$salt$hash`, base64url parts. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, saltB64, keyB64] = stored.split('$');
  if (kind !== 'scrypt' || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, 'base64url');
  const key = await scrypt(password, Buffer.from(saltB64, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && crypto.timingSafeEqual(key, expected);
}

/** A short fingerprint of the password hash: changing the password invalidates old tokens. */
export function passwordFingerprint(passwordHash: string): string {
  return crypto.createHash('sha256').update(passwordHash).digest('base64url').slice(0, 16);
}
