import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { HttpError } from '../lib/errors';
import type { RedisLink } from '../cluster/redis';

export const SIGN_IN_LOCKED = 'Too many failed sign-in attempts. Please try again in 15 minutes.';

const emailOf = (req: Request): string => {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 320) : '';
};

/**
 * Sign-in attempts per email and IP: 10 within 15 minutes. Each attempt is counted when it arrives,
 * before the password hash runs, so parallel guesses cannot slip past the limit; a successful
 * sign-in gives its own attempt back. Counts live in this process, or in Redis when nodes share one.
 */
export function signInLimiter(redis?: RedisLink | null): RequestHandler {
  return rateLimit({
    // With several nodes the counts live in Redis, so an attacker gains nothing by switching nodes.
    ...(redis
      ? { store: redis.limitStore('signin:') }
      : {}),
    windowMs: 15 * 60 * 1000,
    limit: 10,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipSuccessfulRequests: true,
    keyGenerator: (req) => `${emailOf(req)}|${ipKeyGenerator(req.ip ?? '')}`,
    handler: (_req, _res, next) => next(new HttpError(429, SIGN_IN_LOCKED)),
  });
}
