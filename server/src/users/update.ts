import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { z } from 'zod';
import type { AppContext } from '../context';
import { transaction } from '../db/client';
import { users } from '../db/schema';
import { HttpError } from '../lib/errors';
import { splitList } from '../money/levels';
import { MAX_FEE } from '../money/limits';
import { getSettings } from '../settings/service';
import { hashPassword } from '../auth/password';
import { isStaffOrAbove, type AuthUser } from '../auth/middleware';
import { issueToken } from '../auth/service';
import { auditedAccount, writeAudit } from '../audit/service';
import { assertCanReachUser, getUserRow } from './service';
import { publicUser, type UserRow } from './view';
import { FIELD_LABELS } from '../../../common/errors';
import { typedAmount } from '../lib/ids';

const optText = z.preprocess((v) => (v === null ? '' : v), z.string().trim().max(200)).optional();
const optWhole = (label: string, max: number) =>
  z
    .preprocess(
      (v, ctx) => (v === '' || v === undefined ? undefined : v === null ? null : typedAmount(v, ctx)),
      z
        .number({ message: `${label} must be a number.` })
        // The bounds decide a number past 2^53 (zod's int() would call it not whole).
        .max(max, `${label} must be at most ${max.toLocaleString('id-ID')}.`)
        .refine(Number.isInteger, `${label} must be a whole number.`)
        .min(0, `${label} must be 0 or more.`)
        .nullable(),
    )
    .optional();

export const UserUpdate = z.object({
  firstname: optText,
  lastname: optText,
  account_bank: optText,
  account_number: optText,
  account_name: optText,
  password: z.preprocess((v) => (v === null ? '' : v), z.string().max(500)).optional(),
  role: z.enum(['member', 'admin', 'dev', 'staff'], { message: 'Peran tidak dikenal.' }).optional(),
  blast_interval_min: optWhole(FIELD_LABELS.interval_min[0], 86_400),
  blast_interval_max: optWhole(FIELD_LABELS.interval_max[0], 86_400),
  blast_fee: optWhole(FIELD_LABELS.member_fee[0], MAX_FEE),
});
type Input = z.infer<typeof UserUpdate>;

export const MSG = {
  self: 'Anda tidak dapat mengubah peran, fee atau interval akun Anda sendiri.',
  adminOnly: 'Hanya admin yang dapat mengubah peran atau kata sandi pengguna lain.',
  protectedTarget: 'Peran dan kata sandi akun admin atau developer tidak dapat diubah.',
  roleValue: 'Peran hanya dapat diubah menjadi member atau staff.',
  profileOwner: 'Data profil hanya dapat diubah oleh pemiliknya.',
  feeTarget: 'Fee dan interval hanya berlaku untuk akun member.',
  changedMeanwhile: 'Peran, fee atau interval pengguna ini baru saja diubah oleh orang lain. Muat ulang lalu coba lagi.',
} as const;

const sameAs = (column: AnySQLiteColumn, value: number | string | null): SQL => (value === null ? isNull(column) : eq(column, value));

const refuse = (status: number, msg: string, field?: string) => new HttpError(status, msg, field ? { errors: { [field]: msg } } : {});

/** Profile fields: only the user themself changes them. */
async function profilePatch(ctx: AppContext, row: UserRow, input: Input): Promise<Partial<typeof users.$inferInsert>> {
  const patch: Partial<typeof users.$inferInsert> = {};
  if (input.firstname !== undefined) {
    if (!input.firstname) throw new HttpError(422, 'First name is required.', { errors: { firstname: 'First name is required.' } });
    patch.firstname = input.firstname;
  }
  if (input.lastname !== undefined) patch.lastname = input.lastname;
  if (input.account_bank !== undefined) {
    const banks = splitList((await getSettings(ctx.db)).bankNames);
    // A bank no longer offered may be kept, but a new choice must come from settings.bank_names.
    if (input.account_bank && input.account_bank !== row.accountBank && !banks.includes(input.account_bank)) {
      throw new HttpError(422, 'Bank tidak tersedia.', { errors: { account_bank: 'Bank tidak tersedia.' } });
    }
    patch.accountBank = input.account_bank || null;
  }
  if (input.account_number !== undefined) {
    const digits = input.account_number.replace(/[\s.-]/g, '');
    if (digits && !/^\d{1,30}$/.test(digits)) {
      throw new HttpError(422, 'Nomor rekening hanya boleh berisi angka.', { errors: { account_number: 'Nomor rekening hanya boleh berisi angka.' } });
    }
    patch.accountNumber = digits || null;
  }
  if (input.account_name !== undefined) patch.accountName = input.account_name || null;
  return patch;
}

const changed = <T>(value: T | undefined, current: T) => value !== undefined && value !== current;

/**
 * PUT /admin/users/{id}. The rules (docs/decisions.md, "Who may change whom"): a user edits their
 * own profile and password; admin and dev set a member's fee and intervals; only admin changes the
 * role or resets the password of a member or staff account, never an admin's or dev's, never their
 * own role. Every role, password, fee and interval change is audited in the same transaction.
 */
export async function updateUser(ctx: AppContext, caller: AuthUser, id: number, input: Input) {
  assertCanReachUser(caller, id);
  const row = await getUserRow(ctx, id);
  const self = caller.id === id;
  const roleChange = changed(input.role, row.role);
  const feeChange = changed(input.blast_fee, row.blastFee);
  const intervalChange = changed(input.blast_interval_min, row.blastIntervalMin) || changed(input.blast_interval_max, row.blastIntervalMax);
  const passwordChange = Boolean(input.password);

  if (self && (roleChange || feeChange || intervalChange)) throw refuse(403, MSG.self);
  if (!self) {
    const profileChange =
      changed(input.firstname, row.firstname) ||
      changed(input.lastname, row.lastname) ||
      (input.account_bank !== undefined && (input.account_bank || null) !== row.accountBank) ||
      (input.account_name !== undefined && (input.account_name || null) !== row.accountName) ||
      (input.account_number !== undefined && (input.account_number.replace(/[\s.-]/g, '') || null) !== row.accountNumber);
    if (profileChange) throw refuse(403, MSG.profileOwner);
    if (roleChange || passwordChange) {
      if (caller.role !== 'admin') throw refuse(403, MSG.adminOnly);
      if (row.role === 'admin' || row.role === 'dev') throw refuse(403, MSG.protectedTarget);
      if (roleChange && input.role !== 'member' && input.role !== 'staff') throw refuse(422, MSG.roleValue, 'role');
    }
    if ((feeChange || intervalChange) && !(row.role === 'member' || (row.role === 'dev' && caller.role === 'admin'))) {
      throw refuse(403, MSG.feeTarget);
    }
  }

  const patch = self ? await profilePatch(ctx, row, input) : {};
  if (passwordChange) {
    if (input.password!.length < 8) {
      throw new HttpError(422, 'Password must be at least 8 characters.', { errors: { password: 'Password must be at least 8 characters.' } });
    }
    patch.passwordHash = await hashPassword(input.password!);
  }
  if (!self && isStaffOrAbove(caller.role)) {
    const min = input.blast_interval_min !== undefined ? input.blast_interval_min : row.blastIntervalMin;
    const max = input.blast_interval_max !== undefined ? input.blast_interval_max : row.blastIntervalMax;
    if (min !== null && max !== null && min > max) {
      const msg = 'Interval Min tidak boleh lebih besar dari Interval Max.';
      throw new HttpError(422, msg, { errors: { blast_interval_min: msg } });
    }
    if (intervalChange) Object.assign(patch, { blastIntervalMin: min, blastIntervalMax: max });
    if (feeChange) patch.blastFee = input.blast_fee;
    // A new role ends the user's sessions, so their console and live connection start over with it.
    if (roleChange) Object.assign(patch, { role: input.role, sessionEpoch: row.sessionEpoch + 1 });
  }

  await transaction(ctx.db, async (tx) => {
    // A role, fee or interval change is made from the values read above, and the audit row says 'from' them: it
    // applies only while they are still the values in the row. Of two changes sent at once the second finds them
    // changed and is refused, instead of both passing and the log showing one change twice.
    const operatorChange = 'role' in patch || 'blastFee' in patch || 'blastIntervalMin' in patch;
    const where = operatorChange
      ? and(
          eq(users.id, id),
          eq(users.role, row.role),
          sameAs(users.blastFee, row.blastFee),
          sameAs(users.blastIntervalMin, row.blastIntervalMin),
          sameAs(users.blastIntervalMax, row.blastIntervalMax),
        )
      : eq(users.id, id);
    if (Object.keys(patch).length) {
      const changedRows = await tx.update(users).set(patch).where(where).returning({ id: users.id });
      if (operatorChange && changedRows.length === 0) throw refuse(409, MSG.changedMeanwhile);
    }
    if (roleChange && patch.role) await writeAudit(tx, caller.id, id, 'user.role', { from: row.role, to: patch.role });
    if (passwordChange) await writeAudit(tx, caller.id, id, 'user.password', { self });
    if (feeChange && 'blastFee' in patch) await writeAudit(tx, caller.id, id, 'user.fee', { from: row.blastFee, to: patch.blastFee });
    // The account withdrawals are paid to: who changed it, from what to what.
    const before = auditedAccount(row);
    const after = auditedAccount({ ...row, ...patch });
    if (JSON.stringify(before) !== JSON.stringify(after)) await writeAudit(tx, caller.id, id, 'user.bank', { from: before, to: after });
    if (intervalChange && 'blastIntervalMin' in patch) {
      await writeAudit(tx, caller.id, id, 'user.interval', {
        from: { min: row.blastIntervalMin, max: row.blastIntervalMax },
        to: { min: patch.blastIntervalMin, max: patch.blastIntervalMax },
      });
    }
  });
  const updated = await getUserRow(ctx, id);
  if (passwordChange || roleChange) void ctx.realtime.recheckUser(id);
  // A caller who changed their own password gets a fresh token; every other session has ended.
  const token = passwordChange && self ? await issueToken(ctx, updated, true) : undefined;
  return { user: publicUser(updated), ...(token ? { token } : {}), msg: 'User updated' };
}
