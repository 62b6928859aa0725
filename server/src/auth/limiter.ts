import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { HttpError } from '../lib/errors';
import type { RedisLink } from '../cluster/redis';

export const SIGN_IN_LOCKED = 'Too many failed sign-in attempts. Please try again in 15 minutes.';
export const SIGN_UP_LIMITED = 'Too many sign-ups from this address. Please try again in an hour.';

/** Failed sign-ins one address may make in 15 minutes, whatever emails it tries (password spraying). */
export const SIGN_IN_IP_LIMIT = 100;

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

/**
 * Failed sign-ins per address: SIGN_IN_IP_LIMIT within 15 minutes, across every email. Each password
 * check costs a hash on a small shared pool, so one client trying many emails would otherwise slow every
 * sign-in; successful sign-ins give their attempt back, so a whole office behind one address is not held.
 */
export function signInIpLimiter(redis?: RedisLink | null): RequestHandler {
  return rateLimit({
    ...(redis ? { store: redis.limitStore('signin-ip:') } : {}),
    windowMs: 15 * 60 * 1000,
    limit: SIGN_IN_IP_LIMIT,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipSuccessfulRequests: true,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    handler: (_req, _res, next) => next(new HttpError(429, SIGN_IN_LOCKED)),
  });
}

/** Registrations per address: `limit` accounts an hour (SIGNUP_LIMIT; a refused form gives its attempt back). */
export function signUpLimiter(limit: number, redis?: RedisLink | null): RequestHandler {
  return rateLimit({
    ...(redis ? { store: redis.limitStore('signup-ip:') } : {}),
    windowMs: 60 * 60 * 1000,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipFailedRequests: true,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    handler: (_req, _res, next) => next(new HttpError(429, SIGN_UP_LIMITED)),
  });
}
