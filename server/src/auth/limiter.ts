import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { HttpError } from '../lib/errors';
import type { RedisLink } from '../cluster/redis';
import { deviceOf } from './device';

export const SIGN_IN_LOCKED = 'Too many failed sign-in attempts. Please try again in 15 minutes.';
export const SIGN_UP_LIMITED = 'Too many sign-ups from this address. Please try again in an hour.';

/** Failed sign-ins one address may make in 15 minutes, whatever emails it tries (password spraying). */
export const SIGN_IN_IP_LIMIT = 100;
/** Failed sign-ins to one account in 15 minutes, from every address together. */
export const SIGN_IN_ACCOUNT_LIMIT = 10;
/** Failed sign-ins from one trusted browser (device cookie) to its account in 15 minutes. */
export const SIGN_IN_DEVICE_LIMIT = 10;
/** Wrong two-factor codes for one account in 15 minutes (a 6-digit code needs ~500,000 guesses). */
export const TWO_FACTOR_LIMIT = 5;
const WINDOW_MS = 15 * 60 * 1000;

/** A browser with a valid device cookie for the account counts only against its own limit (auth/device.ts). */
const trusted = (_req: Request, res: Response) => deviceOf(res) !== null;

const emailOf = (req: Request): string => {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 320) : '';
};

/**
 * Sign-in attempts per email and IP: 10 within 15 minutes (a trusted browser counts on its own limit). Each attempt is counted when it arrives,
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
    skip: trusted,
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
    skip: trusted,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    handler: (_req, _res, next) => next(new HttpError(429, SIGN_IN_LOCKED)),
  });
}

/**
 * Failed sign-ins per account, whatever address they come from: changing X-Forwarded-For (or using many
 * machines) gains nothing. Unknown emails are counted alike, so the answer tells nothing about which exist.
 * The 429 carries Retry-After. A browser with the account's device cookie is not held by it.
 */
export function signInAccountLimiter(redis?: RedisLink | null): RequestHandler {
  return rateLimit({
    ...(redis ? { store: redis.limitStore('signin-account:') } : {}),
    windowMs: WINDOW_MS,
    limit: SIGN_IN_ACCOUNT_LIMIT,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipSuccessfulRequests: true,
    skip: trusted,
    keyGenerator: (req) => emailOf(req),
    handler: (_req, _res, next) => next(new HttpError(429, SIGN_IN_LOCKED)),
  });
}

/** Failed sign-ins from one trusted browser to its account: its own count, so a guesser who stole the cookie is held too. */
export function signInDeviceLimiter(redis?: RedisLink | null): RequestHandler {
  return rateLimit({
    ...(redis ? { store: redis.limitStore('signin-device:') } : {}),
    windowMs: WINDOW_MS,
    limit: SIGN_IN_DEVICE_LIMIT,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipSuccessfulRequests: true,
    skip: (req, res) => !trusted(req, res),
    keyGenerator: (req, res) => `${emailOf(req)}|${deviceOf(res) ?? ''}`,
    handler: (_req, _res, next) => next(new HttpError(429, SIGN_IN_LOCKED)),
  });
}

/**
 * Wrong second-factor codes per account (the sign-in challenge names it: `res.locals.twoFactorUser`),
 * across addresses and nodes; a correct code gives its attempt back.
 */
export function twoFactorLimiter(redis?: RedisLink | null): RequestHandler {
  return rateLimit({
    ...(redis ? { store: redis.limitStore('signin-2fa:') } : {}),
    windowMs: WINDOW_MS,
    limit: TWO_FACTOR_LIMIT,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipSuccessfulRequests: true,
    keyGenerator: (_req, res) => String((res.locals as { twoFactorUser?: number }).twoFactorUser ?? 0),
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
