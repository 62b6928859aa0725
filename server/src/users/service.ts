import { and, asc, count, eq, exists, inArray, like, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../context';
import { users, whatsapps } from '../db/schema';
import { HttpError } from '../lib/errors';
import { likePattern, paged, pageWindow } from '../lib/paging';
import { feeFor, levelFor, splitList } from '../money/levels';
import { getSettings } from '../settings/service';
import { hashPassword } from '../auth/password';
import { isStaffOrAbove, type AuthUser } from '../auth/middleware';
import { issueToken } from '../auth/service';
import { publicUser, type UserRow } from './view';

export function getUserRow(ctx: AppContext, id: number): UserRow {
  const row = ctx.db.select().from(users).where(eq(users.id, id)).get();
  if (!row) throw new HttpError(404, 'User not found');
  return row;
}

/** Members and staff may only reach their own user; admin and dev anyone. */
export function assertCanReachUser(caller: AuthUser, id: number): void {
  if (!isStaffOrAbove(caller.role) && caller.id !== id) throw new HttpError(403, 'Forbidden');
}

export function userDetail(ctx: AppContext, caller: AuthUser, id: number) {
  assertCanReachUser(caller, id);
  const row = getUserRow(ctx, id);
  const level = levelFor(ctx.db, row.totalSuccess);
  return { user: publicUser(row), level: level?.name ?? null, color: level?.color ?? null };
}

export function blastFee(ctx: AppContext, caller: AuthUser, id: number) {
  assertCanReachUser(caller, id);
  return { blast_fee: feeFor(ctx.db, getUserRow(ctx, id)) };
}

const optText = z.preprocess((v) => (v === null ? '' : v), z.string().trim().max(200)).optional();
const optWhole = (label: string) =>
  z
    .preprocess(
      (v) => (v === '' || v === undefined ? undefined : v === null ? null : typeof v === 'string' ? Number(v) : v),
      z.number({ message: `${label} must be a number.` }).int(`${label} must be a whole number.`).min(0, `${label} must be 0 or more.`).nullable(),
    )
    .optional();

export const UserUpdate = z.object({
  firstname: optText,
  lastname: optText,
  account_bank: optText,
  account_number: optText,
  account_name: optText,
  password: z.preprocess((v) => (v === null ? '' : v), z.string().max(500)).optional(),
  // admin and dev only:
  role: z.enum(['member', 'admin', 'dev', 'staff']).optional(),
  blast_interval_min: optWhole('Interval Min'),
  blast_interval_max: optWhole('Interval Max'),
  blast_fee: optWhole('Fee Whatsapp Blast'),
});

export async function updateUser(ctx: AppContext, caller: AuthUser, id: number, input: z.infer<typeof UserUpdate>) {
  assertCanReachUser(caller, id);
  const row = getUserRow(ctx, id);
  const patch: Partial<typeof users.$inferInsert> = {};
  if (input.firstname !== undefined) {
    if (!input.firstname) throw new HttpError(422, 'First name is required.', { errors: { firstname: 'First name is required.' } });
    patch.firstname = input.firstname;
  }
  if (input.lastname !== undefined) patch.lastname = input.lastname;
  if (input.account_bank !== undefined) {
    const banks = splitList(getSettings(ctx.db).bankNames);
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
  let passwordChanged = false;
  if (input.password) {
    if (input.password.length < 8) {
      throw new HttpError(422, 'Password must be at least 8 characters.', { errors: { password: 'Password must be at least 8 characters.' } });
    }
    patch.passwordHash = await hashPassword(input.password);
    passwordChanged = true;
  }
  // Role, fee and intervals are admin/dev fields: ignored when anyone else sends them.
  if (isStaffOrAbove(caller.role)) {
    if (input.role !== undefined && caller.id !== id) patch.role = input.role;
    if (input.blast_fee !== undefined) patch.blastFee = input.blast_fee;
    const min = input.blast_interval_min !== undefined ? input.blast_interval_min : row.blastIntervalMin;
    const max = input.blast_interval_max !== undefined ? input.blast_interval_max : row.blastIntervalMax;
    if (min !== null && max !== null && min > max) {
      const msg = 'Interval Min tidak boleh lebih besar dari Interval Max.';
      throw new HttpError(422, msg, { errors: { blast_interval_min: msg } });
    }
    if (input.blast_interval_min !== undefined) patch.blastIntervalMin = input.blast_interval_min;
    if (input.blast_interval_max !== undefined) patch.blastIntervalMax = input.blast_interval_max;
  }
  if (Object.keys(patch).length) ctx.db.update(users).set(patch).where(eq(users.id, id)).run();
  const updated = getUserRow(ctx, id);
  if (passwordChanged) ctx.realtime.disconnectUser(id);
  // A caller who changed their own password gets a fresh token; every other session has ended.
  const token = passwordChanged && caller.id === id ? await issueToken(ctx, updated, true) : undefined;
  return { user: publicUser(updated), ...(token ? { token } : {}), msg: 'User updated' };
}

function memberRow(ctx: AppContext, u: UserRow & { whatsapps: number }) {
  const level = levelFor(ctx.db, u.totalSuccess);
  return { ...publicUser(u), whatsapps: u.whatsapps, level: level ? { name: level.name, color: level.color } : null };
}

// eq() qualifies both columns; a bare `${column}` would render unqualified and bind to whatsapps.id.
const whatsappCount = sql<number>`(select count(*) from ${whatsapps} where ${eq(whatsapps.userId, users.id)})`.as('whatsapps');

export function listMembers(ctx: AppContext) {
  const rows = ctx.db
    .select({ u: users, whatsapps: whatsappCount })
    .from(users)
    .where(eq(users.role, 'member'))
    .orderBy(asc(users.firstname), asc(users.id))
    .all();
  return { users: rows.map((r) => memberRow(ctx, { ...r.u, whatsapps: r.whatsapps })) };
}

export const MEMBER_STATUSES = ['online', 'offline', 'sending', 'suspended'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export function memberStatusParam(value: unknown): MemberStatus | null {
  const s = Array.isArray(value) ? value[0] : value;
  return (MEMBER_STATUSES as readonly unknown[]).includes(s) ? (s as MemberStatus) : null;
}

/**
 * 'Filter Status': online / offline = signed in right now (an open live connection) or not;
 * sending = an account blasting now; suspended = an account suspended.
 */
function statusCondition(ctx: AppContext, status: MemberStatus | null): SQL | undefined {
  if (status === null) return undefined;
  if (status === 'online' || status === 'offline') {
    const ids = [...ctx.realtime.connectedUserIds('member')];
    if (status === 'online') return ids.length ? inArray(users.id, ids) : sql`0`;
    return ids.length ? notInArray(users.id, ids) : undefined;
  }
  const account = status === 'sending' ? eq(whatsapps.status, 'sending') : eq(whatsapps.suspended, true);
  return exists(ctx.db.select({ one: sql`1` }).from(whatsapps).where(and(eq(whatsapps.userId, users.id), account)));
}

export function membersPerPage(ctx: AppContext, page: number, search: string, status: MemberStatus | null = null) {
  const where = and(
    eq(users.role, 'member'),
    search
      ? or(
          like(users.firstname, likePattern(search)),
          like(users.lastname, likePattern(search)),
          like(users.email, likePattern(search)),
          like(sql`${users.firstname} || ' ' || ${users.lastname}`, likePattern(search)),
        )
      : undefined,
    statusCondition(ctx, status),
  );
  const { limit, offset } = pageWindow(page);
  let total: number;
  let pageWhere = where;
  if (search) {
    // One scan for a search: every matching id (the total), then the page's rows by id.
    const ids = ctx.db.select({ id: users.id }).from(users).where(where).orderBy(asc(users.id)).all();
    total = ids.length;
    pageWhere = inArray(users.id, ids.slice(offset, offset + limit).map((r) => r.id));
  } else total = ctx.db.select({ n: count() }).from(users).where(where).get()?.n ?? 0;
  const rows = ctx.db
    .select({ u: users, whatsapps: whatsappCount })
    .from(users)
    .where(pageWhere)
    .orderBy(asc(users.id))
    .limit(limit)
    .offset(search ? 0 : offset)
    .all();
  return paged(
    rows.map((r) => memberRow(ctx, { ...r.u, whatsapps: r.whatsapps })),
    total,
    page,
  );
}

/** Members with at least one open live connection right now. */
export function activeMembers(ctx: AppContext) {
  return { count: ctx.realtime.connectedUserIds('member').size };
}
