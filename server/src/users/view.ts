import type { users } from '../db/schema';

export type UserRow = typeof users.$inferSelect;

/** A user as the API shows it. Never carries the password hash. */
export function publicUser(u: UserRow) {
  return {
    id: u.id,
    firstname: u.firstname,
    lastname: u.lastname,
    email: u.email,
    role: u.role,
    referral_code: u.referralCode,
    referred_by: u.referredBy,
    account_bank: u.accountBank,
    account_number: u.accountNumber,
    account_name: u.accountName,
    blast_interval_min: u.blastIntervalMin,
    blast_interval_max: u.blastIntervalMax,
    blast_fee: u.blastFee,
    count_success: u.totalSuccess,
    count_fail: u.totalFail,
    income: u.income,
    createdAt: u.createdAt,
  };
}

export type PublicUser = ReturnType<typeof publicUser>;
