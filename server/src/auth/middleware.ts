import type { RequestHandler, Request } from 'express';
import { eq } from 'drizzle-orm';
import type { Role } from '../../../common/roles';
import type { AppContext } from '../context';
import { one } from '../db/raw';
import { revokedTokens, users } from '../db/schema';
import { HttpError } from '../lib/errors';
import { verifyToken } from './jwt';
import { passwordFingerprint } from './password';
import { tokenHash } from './revoked';

export interface AuthUser {
  id: number;
  role: Role;
  firstname: string;
  lastname: string;
  email: string;
  token: string;
  /** When the token expires (ms since the epoch). */
  expiresAt: number;
  /** A token of a sign-in that must set up two-factor before anything else (REQUIRE_2FA). */
  enrolOnly?: boolean;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      user?: AuthUser;
    }
  }
}

export const ROLE_DENIED = 'Your role cannot use this call';
export const TWO_FACTOR_SETUP_REQUIRED = 'Set up two-factor sign-in first.';
/** What a set-up-only token (REQUIRE_2FA, not yet enrolled) may call. */
const ENROL_PATHS = new Set(['/auth/2fa', '/auth/2fa/setup', '/auth/2fa/enable', '/auth/logout']);

export function sessionFingerprint(passwordHash: string, sessionEpoch: number): string {
  return passwordFingerprint(`${passwordHash}#${sessionEpoch}`);
}

/**
 * The user a token stands for, or null when it is invalid, expired or from before a password change.
 * A set-up-only token counts only where `enrolment` says the caller checks what it opens.
 */
export async function userFromToken(ctx: AppContext, token: string, options: { enrolment?: boolean } = {}): Promise<AuthUser | null> {
  const claims = await verifyToken(ctx.config.jwtSecret, token);
  if (!claims) return null;
  if (claims.scope === 'enrol' && !options.enrolment) return null;
  // One query per request: the user, and whether this token was signed out.
  const found = await one(
    ctx.db
      .select({ user: users, revoked: revokedTokens.tokenHash })
      .from(users)
      .leftJoin(revokedTokens, eq(revokedTokens.tokenHash, tokenHash(token)))
      .where(eq(users.id, claims.sub))
      .limit(1),
  );
  const row = found?.user;
  if (!row || sessionFingerprint(row.passwordHash, row.sessionEpoch) !== claims.fp) return null;
  if (found.revoked !== null) return null;
  const expiresAt = claims.exp ?? Date.now();
  return { id: row.id, role: row.role, firstname: row.firstname, lastname: row.lastname, email: row.email, token, expiresAt, ...(claims.scope === 'enrol' ? { enrolOnly: true } : {}) };
}

export function bearerToken(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice(7).trim() || null;
}

export function requireAuth(ctx: AppContext): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req);
    if (!token) throw new HttpError(401, 'Authorization token is missing');
    const user = await userFromToken(ctx, token, { enrolment: true });
    if (!user) throw new HttpError(401, 'Invalid or expired token');
    if (user.enrolOnly && !ENROL_PATHS.has(req.path)) throw new HttpError(403, TWO_FACTOR_SETUP_REQUIRED);
    req.user = user;
    next();
  };
}

export function requireRole(roles: Role[]): RequestHandler {
  return (req, _res, next) => {
    if (!req.user || !roles.includes(req.user.role)) throw new HttpError(403, ROLE_DENIED);
    next();
  };
}

/** The signed-in user; routes behind requireAuth always have one. */
export function currentUser(req: Request): AuthUser {
  if (!req.user) throw new HttpError(401, 'Authorization token is missing');
  return req.user;
}

export const isStaffOrAbove = (role: Role) => role === 'admin' || role === 'dev';

/**
 * The user id a caller may act for: admin and dev may name anyone; everyone else only themselves,
 * whatever id the request carries.
 */
export function ownUserId(user: AuthUser, requested: number | null | undefined): number {
  if (isStaffOrAbove(user.role)) return requested ?? user.id;
  if (requested !== null && requested !== undefined && requested !== user.id) throw new HttpError(403, 'Forbidden');
  return user.id;
}
