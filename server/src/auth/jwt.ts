import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Role } from '../../../common/roles';
import { isRole } from '../../../common/roles';

export const SHORT_SESSION_S = 60 * 60 * 24; // one day without "Keep me logged in"
export const LONG_SESSION_S = 60 * 60 * 24 * 30; // thirty days with it
export const ENROL_SESSION_S = 60 * 30; // a sign-in sent to set up two-factor (REQUIRE_2FA)
export const CHALLENGE_S = 60 * 5; // between the password and the two-factor code

export interface TokenClaims {
  sub: number;
  role: Role;
  /** Fingerprint of the password hash and session epoch when the token was issued. */
  fp: string;
  /** When the token expires, in ms since the epoch (verified tokens only). */
  exp?: number;
  /** 'enrol': a sign-in that must set up two-factor first; it opens only the set-up calls (auth/middleware.ts). */
  scope?: 'enrol';
}

export async function signToken(secret: Uint8Array, claims: TokenClaims, ttlSeconds: number): Promise<string> {
  return new SignJWT({ role: claims.role, fp: claims.fp, ...(claims.scope ? { scope: claims.scope } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.sub))
    // Every token is distinct, so signing one out never ends a twin issued in the same second.
    .setJti(crypto.randomBytes(12).toString('base64url'))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(secret);
}

/** Returns the claims of a valid, unexpired token, or null. */
export async function verifyToken(secret: Uint8Array, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    const sub = Number(payload.sub);
    if (!Number.isInteger(sub) || !isRole(payload.role) || typeof payload.fp !== 'string') return null;
    return {
      sub,
      role: payload.role,
      fp: payload.fp,
      exp: typeof payload.exp === 'number' ? payload.exp * 1000 : undefined,
      ...(payload.scope === 'enrol' ? { scope: 'enrol' as const } : {}),
    };
  } catch {
    return null;
  }
}
