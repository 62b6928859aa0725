import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../config';
import type { Db, Tx } from '../db/client';
import { one } from '../db/raw';
import { settings } from '../db/schema';

/** 'Pendaftaran': who may create an account from /signup. */
export const SIGNUP_MODES = ['open', 'referral', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

export const SIGNUP_MODE_MESSAGE = 'Pendaftaran must be open, referral or closed.';
export const SIGNUP_CLOSED = 'Sign-up is closed.';
export const REFERRAL_REQUIRED = 'A referral code is required to sign up.';

export const SignupModeField = z.enum(SIGNUP_MODES, { message: SIGNUP_MODE_MESSAGE });

/**
 * The mode of an install where no admin has chosen one: open on the demo (and in development), referral
 * only on a production install, so a console put on the internet does not take strangers' sign-ups
 * before its admin decided to.
 */
export function defaultSignupMode(config: Pick<Config, 'production' | 'demo'>): SignupMode {
  return config.production && !config.demo ? 'referral' : 'open';
}

export function effectiveSignupMode(stored: string | null | undefined, fallback: SignupMode): SignupMode {
  return (SIGNUP_MODES as readonly string[]).includes(stored ?? '') ? (stored as SignupMode) : fallback;
}

/** The mode in force now (the stored choice, else the install's default). */
export async function signupMode(db: Db | Tx, config: Pick<Config, 'production' | 'demo'>): Promise<SignupMode> {
  const row = await one(db.select({ mode: settings.signupMode }).from(settings).where(eq(settings.id, 1)).limit(1));
  return effectiveSignupMode(row?.mode, defaultSignupMode(config));
}
