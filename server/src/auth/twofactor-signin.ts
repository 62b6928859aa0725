import type { RequestHandler } from 'express';
import { eq } from 'drizzle-orm';
import { SignJWT, jwtVerify } from 'jose';
import { z } from 'zod';
import type { AppContext } from '../context';
import { one } from '../db/raw';
import { users } from '../db/schema';
import { HttpError } from '../lib/errors';
import { publicUser, type UserRow } from '../users/view';
import { CHALLENGE_S } from './jwt';
import { sessionFingerprint } from './middleware';
import { issueToken } from './service';
import { checkSecondFactor, CODE_INVALID, hasTwoFactor, isRequiredFor } from './twofactor';

export const CHALLENGE_EXPIRED = 'The sign-in has expired. Please sign in again.';
export const CODE_REQUIRED = 'Enter the 6-digit code or a recovery code.';
const CHALLENGE_TYPE = 'blast-2fa-challenge';

export const VerifyBody = z.object({
  challenge: z.string({ message: CHALLENGE_EXPIRED }).min(1, CHALLENGE_EXPIRED).max(2000, CHALLENGE_EXPIRED),
  code: z.string({ message: CODE_REQUIRED }).trim().min(1, CODE_REQUIRED).max(40, CODE_INVALID),
});

/**
 * What stands between a right password and the second step: a short token naming the user, the session
 * fingerprint (a password change or sign-out-everywhere ends it) and "Keep me logged in". It is no
 * session token: it has no role, so the API refuses it (auth/jwt.ts verifyToken).
 */
async function signChallenge(ctx: AppContext, user: UserRow, remember: boolean): Promise<string> {
  return new SignJWT({ typ: CHALLENGE_TYPE, fp: sessionFingerprint(user.passwordHash, user.sessionEpoch), rem: remember })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(user.id))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + CHALLENGE_S)
    .sign(ctx.config.jwtSecret);
}

async function readChallenge(ctx: AppContext, challenge: string): Promise<{ user: UserRow; remember: boolean }> {
  try {
    const { payload } = await jwtVerify(challenge, ctx.config.jwtSecret, { algorithms: ['HS256'] });
    const id = Number(payload.sub);
    if (payload.typ !== CHALLENGE_TYPE || !Number.isInteger(id)) throw new Error('not a challenge');
    const user = await one(ctx.db.select().from(users).where(eq(users.id, id)).limit(1));
    if (!user || sessionFingerprint(user.passwordHash, user.sessionEpoch) !== payload.fp) throw new Error('stale');
    return { user, remember: payload.rem === true };
  } catch {
    throw new HttpError(401, CHALLENGE_EXPIRED);
  }
}

/**
 * After a right password: a session token; or, with two-factor on, a challenge for the code; or, for a
 * role REQUIRE_2FA names that has not set it up, a token that opens only the set-up (`two_factor: 'setup'`).
 */
export async function afterPassword(ctx: AppContext, user: UserRow, remember: boolean) {
  if (hasTwoFactor(user)) {
    return { two_factor: 'code' as const, challenge: await signChallenge(ctx, user, remember), msg: 'Two-factor code required' };
  }
  if (isRequiredFor(ctx, user.role)) {
    return { two_factor: 'setup' as const, token: await issueToken(ctx, user, false, 'enrol'), user: publicUser(user), msg: 'Two-factor set-up required' };
  }
  return { token: await issueToken(ctx, user, remember), user: publicUser(user), msg: 'Login successful' };
}

/** Reads the challenge before the code limiter, which counts per account (`res.locals.twoFactorUser`). */
export function readChallengeStep(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const body = VerifyBody.parse(req.body ?? {});
    const step = await readChallenge(ctx, body.challenge);
    Object.assign(res.locals, { twoFactorUser: step.user.id, twoFactorStep: { ...step, code: body.code } });
    next();
  };
}

/** The second step: the code (or a recovery code) for the challenge read by readChallengeStep. */
export async function verifyStep(ctx: AppContext, locals: Record<string, unknown>) {
  const step = locals.twoFactorStep as { user: UserRow; remember: boolean; code: string };
  const used = await checkSecondFactor(ctx, step.user, step.code);
  if (!used) throw new HttpError(401, CODE_INVALID, { errors: { code: CODE_INVALID } });
  return { token: await issueToken(ctx, step.user, step.remember), user: publicUser(step.user), msg: 'Login successful', ...(used === 'recovery' ? { recovery_code_used: true } : {}) };
}
