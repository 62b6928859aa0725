import crypto from 'node:crypto';
import { and, count, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import type { Role } from '../../../common/roles';
import type { AppContext } from '../context';
import { transaction, type Db } from '../db/client';
import { one } from '../db/raw';
import { recoveryCodes, users } from '../db/schema';
import { writeAudit } from '../audit/service';
import { HttpError } from '../lib/errors';
import { decryptSecret, encryptSecret } from '../lib/secrets';
import type { UserRow } from '../users/view';

/**
 * Two-factor sign-in with TOTP (RFC 6238: 6 digits, 30 s, SHA-1, as every authenticator app reads it).
 * The secret is stored encrypted under the server's secret key, like the Cloud API tokens; recovery
 * codes are stored as SHA-256 hashes (they are random, so a slow hash adds nothing) and work once.
 */
export const TWO_FACTOR_ISSUER = 'Blast Console';
export const RECOVERY_CODE_COUNT = 10;

export const CODE_INVALID = 'The code is not correct.';
export const ALREADY_ON = 'Two-factor sign-in is already on.';
export const NOT_STARTED = 'Start the two-factor set-up first.';
export const NOT_ON = 'Two-factor sign-in is not on.';
export const REQUIRED_FOR_ROLE = 'Your role must sign in with two-factor; it cannot be turned off.';
export const PASSWORD_INCORRECT = 'The password is not correct.';

/** Letters and digits that cannot be mistaken for one another when copied from paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export const isRequiredFor = (ctx: AppContext, role: Role) => ctx.config.require2fa.includes(role);
export const hasTwoFactor = (row: Pick<UserRow, 'totpEnabledAt'>) => row.totpEnabledAt !== null;

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** What the user typed, as compared: lower case, without spaces and dashes. */
const normalCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const hashCode = (code: string) => crypto.createHash('sha256').update(normalCode(code)).digest('hex');

async function userRow(db: Db, id: number): Promise<UserRow> {
  const row = await one(db.select().from(users).where(eq(users.id, id)).limit(1));
  if (!row) throw new HttpError(404, 'User not found');
  return row;
}

export async function twoFactorStatus(ctx: AppContext, userId: number) {
  const row = await userRow(ctx.db, userId);
  const left = await one(ctx.db.select({ n: count() }).from(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt))));
  return { enabled: hasTwoFactor(row), required: isRequiredFor(ctx, row.role), recovery_codes_left: hasTwoFactor(row) ? Number(left?.n ?? 0) : 0 };
}

/** A new secret waiting for its first code; starting again replaces it. Refused while two-factor is on. */
export async function startEnrolment(ctx: AppContext, userId: number) {
  const row = await userRow(ctx.db, userId);
  if (hasTwoFactor(row)) throw new HttpError(409, ALREADY_ON);
  const secret = generateSecret();
  await ctx.db
    .update(users)
    .set({ totpSecret: encryptSecret(ctx.config.secretKey, secret), totpLastStep: null })
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)));
  return { secret, uri: generateURI({ issuer: TWO_FACTOR_ISSUER, label: row.email, secret }) };
}

/** The time step of a valid TOTP code for this secret, or null (not a code, wrong, or too old). */
async function totpStep(secret: string, code: string, after: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    // One step of drift either way (a phone clock a little off); a step used before never counts again.
    const result = await verify({ secret, token: code, epochTolerance: 30, ...(after === null ? {} : { afterTimeStep: after }) });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

/**
 * Confirms the pending secret with a code: two-factor is on from now, the account's other sessions end
 * (the caller gets a new token), and ten recovery codes are made, returned here once and kept hashed.
 */
export async function confirmEnrolment(ctx: AppContext, userId: number, code: string): Promise<{ codes: string[]; row: UserRow }> {
  const row = await userRow(ctx.db, userId);
  if (hasTwoFactor(row)) throw new HttpError(409, ALREADY_ON);
  if (!row.totpSecret) throw new HttpError(422, NOT_STARTED);
  const step = await totpStep(decryptSecret(ctx.config.secretKey, row.totpSecret), normalCode(code), null);
  if (step === null) throw new HttpError(422, CODE_INVALID, { errors: { code: CODE_INVALID } });
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const updated = await transaction(ctx.db, async (tx) => {
    // Only the secret the code was checked against: a set-up started again meanwhile is not turned on.
    const [done] = await tx
      .update(users)
      .set({ totpEnabledAt: new Date(), totpLastStep: step, sessionEpoch: sql`${users.sessionEpoch} + 1` })
      .where(and(eq(users.id, userId), eq(users.totpSecret, row.totpSecret!), isNull(users.totpEnabledAt)))
      .returning();
    if (!done) throw new HttpError(409, ALREADY_ON);
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashCode(c) })));
    await writeAudit(tx, userId, userId, '2fa.enable', { recovery_codes: RECOVERY_CODE_COUNT });
    return done;
  });
  return { codes, row: updated };
}

/** Turns two-factor off for `targetId`, audited; its sessions end. Returns the updated row, or null when it was off. */
export async function removeTwoFactor(db: Db, actorId: number | null, targetId: number, action: '2fa.disable' | '2fa.reset', details: Record<string, unknown>): Promise<UserRow | null> {
  return transaction(db, async (tx) => {
    const [done] = await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, sessionEpoch: sql`${users.sessionEpoch} + 1` })
      .where(eq(users.id, targetId))
      .returning();
    if (!done) return null;
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, targetId));
    await writeAudit(tx, actorId, targetId, action, details);
    return done;
  });
}

/** `user:create --reset-2fa`: two-factor off for the account with this email (any case), audited with no actor; null when there is none. */
export async function resetTwoFactorByEmail(db: Db, email: string): Promise<UserRow | null> {
  const row = await one(db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1));
  return row ? removeTwoFactor(db, null, row.id, '2fa.reset', { via: 'user:create --reset-2fa' }) : null;
}

/** The owner turns it off with their password; refused for a role REQUIRE_2FA names. */
export async function disableTwoFactor(ctx: AppContext, userId: number, passwordOk: (hash: string) => Promise<boolean>): Promise<UserRow> {
  const row = await userRow(ctx.db, userId);
  if (!hasTwoFactor(row)) throw new HttpError(409, NOT_ON);
  if (isRequiredFor(ctx, row.role)) throw new HttpError(403, REQUIRED_FOR_ROLE);
  if (!(await passwordOk(row.passwordHash))) throw new HttpError(422, PASSWORD_INCORRECT, { errors: { password: PASSWORD_INCORRECT } });
  const done = await removeTwoFactor(ctx.db, userId, userId, '2fa.disable', {});
  if (!done) throw new HttpError(404, 'User not found');
  return done;
}

/**
 * The second step of a sign-in: a TOTP code (each time step once) or an unused recovery code (then
 * used up). Concurrent sign-ins with one code: the conditional update lets only one through.
 */
export async function checkSecondFactor(ctx: AppContext, row: UserRow, typed: string): Promise<'totp' | 'recovery' | null> {
  if (!hasTwoFactor(row) || !row.totpSecret) return null;
  const code = normalCode(typed);
  if (/^\d{6}$/.test(code)) {
    const step = await totpStep(decryptSecret(ctx.config.secretKey, row.totpSecret), code, row.totpLastStep);
    if (step === null) return null;
    const [used] = await ctx.db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, row.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return used ? 'totp' : null;
  }
  if (code.length !== 10) return null;
  const [used] = await ctx.db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.userId, row.id), eq(recoveryCodes.codeHash, hashCode(code)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used ? 'recovery' : null;
}
