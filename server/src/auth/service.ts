import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Role } from '../../../common/roles';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { one } from '../db/raw';
import { users } from '../db/schema';
import { HttpError } from '../lib/errors';
import { publicUser, type UserRow } from '../users/view';
import { ENROL_SESSION_S, LONG_SESSION_S, SHORT_SESSION_S, signToken } from './jwt';
import { sessionFingerprint, userFromToken } from './middleware';
import { hashPassword, verifyPassword } from './password';
import { REFERRAL_REQUIRED, SIGNUP_CLOSED, signupMode } from '../settings/signup';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_TAKEN = 'Email is already registered.';
/** A well-formed hash no password matches, verified for unknown emails. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

const str = z.preprocess((v) => (v === null || v === undefined ? '' : v), z.string().max(500));

export const RegisterBody = z.object({
  firstName: str,
  lastName: str,
  email: str,
  password: str,
  password2: str,
  referral_code: str.optional(),
  agreeToTerms: z.unknown().optional(),
});

export const LoginBody = z.object({
  email: str,
  password: str,
  remember: z.unknown().optional(),
});

export function newReferralCode(): string {
  return crypto.randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8).toUpperCase();
}

export async function issueToken(ctx: AppContext, user: UserRow, long: boolean, scope?: 'enrol'): Promise<string> {
  return signToken(
    ctx.config.jwtSecret,
    { sub: user.id, role: user.role, fp: sessionFingerprint(user.passwordHash, user.sessionEpoch), ...(scope ? { scope } : {}) },
    // A set-up-only token lives as long as a set-up may take, not a session.
    scope ? ENROL_SESSION_S : long ? LONG_SESSION_S : SHORT_SESSION_S,
  );
}

function findByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return one(db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1));
}

/**
 * Creates a user with a unique referral code. Used by registration, the seed and the CLI. A caller that
 * creates several users with one password (the demo) may pass its hash, made once, instead.
 */
export async function createUser(
  db: Db,
  input: {
    firstname: string;
    lastname: string;
    email: string;
    role?: Role;
    referredBy?: number | null;
    referralCode?: string;
  } & ({ password: string } | { passwordHash: string }),
): Promise<UserRow> {
  const passwordHash = 'passwordHash' in input ? input.passwordHash : await hashPassword(input.password);
  for (let attempt = 0; ; attempt++) {
    const code = attempt === 0 && input.referralCode ? input.referralCode : newReferralCode();
    const clash = await one(db.select({ id: users.id }).from(users).where(eq(users.referralCode, code)).limit(1));
    if (clash) continue;
    const [created] = await db
      .insert(users)
      .values({
        firstname: input.firstname.trim(),
        lastname: input.lastname.trim(),
        email: input.email.trim().toLowerCase(),
        passwordHash,
        role: input.role ?? 'member',
        referralCode: code,
        referredBy: input.referredBy ?? null,
      })
      .returning();
    return created!;
  }
}

export async function register(ctx: AppContext, body: z.infer<typeof RegisterBody>) {
  // 'Pendaftaran' (settings/signup.ts): closed refuses every form; referral only wants a member's code.
  const mode = await signupMode(ctx.db, ctx.config);
  if (mode === 'closed') throw new HttpError(403, SIGNUP_CLOSED);
  const errors: Record<string, string> = {};
  if (!body.firstName.trim()) errors.firstName = 'First name is required.';
  if (!body.lastName.trim()) errors.lastName = 'Last name is required.';
  const email = body.email.trim().toLowerCase();
  if (!email) errors.email = 'Email is required.';
  else if (!EMAIL_RE.test(email)) errors.email = 'Please enter a valid email address.';
  else if (await findByEmail(ctx.db, email)) errors.email = EMAIL_TAKEN;
  if (!body.password) errors.password = 'Password is required.';
  else if (body.password.length < 8) errors.password = 'Password must be at least 8 characters.';
  if (!body.password2) errors.password2 = 'Please confirm your password.';
  else if (body.password && body.password !== body.password2) errors.password2 = 'Passwords do not match.';
  let referrer: UserRow | undefined;
  const code = (body.referral_code ?? '').trim();
  if (code) {
    // Only members refer (only they get a referral link): another role's code is not a referral code.
    referrer = await one(ctx.db.select().from(users).where(and(eq(users.referralCode, code.toUpperCase()), eq(users.role, 'member'))).limit(1));
    if (!referrer) errors.referral_code = 'Referral code not found.';
  } else if (mode === 'referral') errors.referral_code = REFERRAL_REQUIRED;
  const agreed = body.agreeToTerms === true || body.agreeToTerms === 'true' || body.agreeToTerms === 1;
  if (!agreed) errors.agreeToTerms = 'You must agree to the terms and conditions.';
  if (Object.keys(errors).length) {
    throw new HttpError(422, Object.values(errors)[0]!, { errors });
  }
  const user = await createUser(ctx.db, {
    firstname: body.firstName,
    lastname: body.lastName,
    email,
    password: body.password,
    referredBy: referrer?.id ?? null,
  }).catch((err: unknown) => {
    // Two registrations with one email at once: the second meets the unique index while hashing.
    if (isUniqueViolation(err, 'users', 'email')) throw new HttpError(422, EMAIL_TAKEN, { errors: { email: EMAIL_TAKEN } });
    throw err;
  });
  const token = await issueToken(ctx, user, false);
  return { token, user: publicUser(user), msg: 'Registration successful' };
}

/**
 * The password step. Attempts are limited by the route (auth/limiter.ts) before this runs; what follows a
 * right password (a token, the two-factor code, or the two-factor set-up) is auth/twofactor-signin.ts's.
 */
export async function checkPassword(ctx: AppContext, body: z.infer<typeof LoginBody>): Promise<{ user: UserRow; remember: boolean }> {
  const email = body.email.trim().toLowerCase();
  if (!email || !body.password) throw new HttpError(422, 'Email and password are required.');
  const user = await findByEmail(ctx.db, email);
  // An unknown email costs a hash too, so timing does not tell which emails exist.
  const ok = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) throw new HttpError(401, 'Invalid email or password');
  return { user, remember: body.remember === true || body.remember === 'true' };
}

export async function validate(ctx: AppContext, token: unknown): Promise<{ isvalid: boolean }> {
  if (typeof token !== 'string' || !token) return { isvalid: false };
  // A set-up-only token is valid for the enrolment page that holds it.
  return { isvalid: (await userFromToken(ctx, token, { enrolment: true })) !== null };
}
