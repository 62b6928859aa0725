import { and, asc, count, eq, exists, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../context';
import { memberSearch, textSearch } from '../db/text-search';
import { one } from '../db/raw';
import { users, whatsapps } from '../db/schema';
import { HttpError } from '../lib/errors';
import { paged, pageWindow } from '../lib/paging';
import { feeFor, levelFor, levelLadder, type LevelInfo } from '../money/levels';
import { isStaffOrAbove, type AuthUser } from '../auth/middleware';
import { publicUser, type UserRow } from './view';

export async function getUserRow(ctx: AppContext, id: number): Promise<UserRow> {
  const row = await one(ctx.db.select().from(users).where(eq(users.id, id)).limit(1));
  if (!row) throw new HttpError(404, 'User not found');
  return row;
}

/** Members and staff may only reach their own user; admin and dev anyone. */
export function assertCanReachUser(caller: AuthUser, id: number): void {
  if (!isStaffOrAbove(caller.role) && caller.id !== id) throw new HttpError(403, 'Forbidden');
}

export async function userDetail(ctx: AppContext, caller: AuthUser, id: number) {
  assertCanReachUser(caller, id);
  const row = await getUserRow(ctx, id);
  const level = await levelFor(ctx.db, row.totalSuccess);
  return { user: publicUser(row), level: level?.name ?? null, color: level?.color ?? null };
}

export async function blastFee(ctx: AppContext, caller: AuthUser, id: number) {
  assertCanReachUser(caller, id);
  return { blast_fee: await feeFor(ctx.db, await getUserRow(ctx, id)) };
}

function memberRow(levelOf: (totalSuccess: number) => LevelInfo | null, u: UserRow & { whatsapps: number }) {
  const level = levelOf(u.totalSuccess);
  return { ...publicUser(u), whatsapps: u.whatsapps, level: level ? { name: level.name, color: level.color } : null };
}

// eq() qualifies both columns; a bare `${column}` would render unqualified and bind to whatsapps.id.
const whatsappCount = sql<number>`(select count(*) from ${whatsapps} where ${eq(whatsapps.userId, users.id)})`.mapWith(Number).as('whatsapps');

export async function listMembers(ctx: AppContext) {
  const rows = await ctx.db
    .select({ u: users, whatsapps: whatsappCount })
    .from(users)
    .where(eq(users.role, 'member'))
    .orderBy(asc(users.firstname), asc(users.id));
  const levelOf = await levelLadder(ctx.db);
  return { users: rows.map((r) => memberRow(levelOf, { ...r.u, whatsapps: r.whatsapps })) };
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
async function statusCondition(ctx: AppContext, status: MemberStatus | null): Promise<SQL | undefined> {
  if (status === null) return undefined;
  if (status === 'online' || status === 'offline') {
    const ids = [...(await ctx.realtime.connectedUserIds('member'))];
    if (status === 'online') return ids.length ? inArray(users.id, ids) : sql`1 = 0`;
    return ids.length ? notInArray(users.id, ids) : undefined;
  }
  const account = status === 'sending' ? eq(whatsapps.status, 'sending') : eq(whatsapps.suspended, true);
  return exists(ctx.db.select({ one: sql`1` }).from(whatsapps).where(and(eq(whatsapps.userId, users.id), account)));
}

export async function membersPerPage(ctx: AppContext, page: number, search: string, status: MemberStatus | null = null) {
  const where = and(
    eq(users.role, 'member'),
    search ? textSearch(memberSearch, search) : undefined,
    await statusCondition(ctx, status),
  );
  const { limit, offset } = pageWindow(page);
  let total: number;
  let pageWhere = where;
  if (search) {
    // One scan for a search: every matching id (the total), then the page's rows by id.
    const ids = await ctx.db.select({ id: users.id }).from(users).where(where).orderBy(asc(users.id));
    total = ids.length;
    pageWhere = inArray(users.id, ids.slice(offset, offset + limit).map((r) => r.id));
  } else total = (await one(ctx.db.select({ n: count() }).from(users).where(where)))?.n ?? 0;
  const rows = await ctx.db
    .select({ u: users, whatsapps: whatsappCount })
    .from(users)
    .where(pageWhere)
    .orderBy(asc(users.id))
    .limit(limit)
    .offset(search ? 0 : offset);
  const levelOf = await levelLadder(ctx.db);
  return paged(
    rows.map((r) => memberRow(levelOf, { ...r.u, whatsapps: r.whatsapps })),
    total,
    page,
  );
}

/** Members with at least one open live connection right now. */
export async function activeMembers(ctx: AppContext) {
  return { count: (await ctx.realtime.connectedUserIds('member')).size };
}
