import { and, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../context';
import { users, whatsapps } from '../db/schema';
import { isStaffOrAbove, ownUserId, type AuthUser } from '../auth/middleware';
import { HttpError } from '../lib/errors';
import { likePattern, paged, pageWindow } from '../lib/paging';
import { accountById, accountFor, emitAccount } from './access';
import { applyConnectionState, SUSPENSIONS_BEFORE_LOCK } from './events';
import { whatsappView, type WhatsappRow } from './view';
import { getSettings } from '../settings/service';
import { writeAudit } from '../audit/service';

/** Status filter values of the list (kept in `s` with the search text). */
const FILTERS: Record<string, SQL | undefined> = {
  connected: eq(whatsapps.state, 'connected'),
  loggedout: eq(whatsapps.state, 'loggedOut'),
  conflict: eq(whatsapps.state, 'conflict'),
  disconnected: eq(whatsapps.state, 'disconnected'),
  unknown: or(isNull(whatsapps.state), eq(whatsapps.state, ''), eq(whatsapps.state, 'unknown')),
  sending: eq(whatsapps.status, 'sending'),
  suspended: eq(whatsapps.suspended, true),
};

/** A search text that names a status filter ('loggedOut', 'Logged Out'…) filters by it instead. */
function searchCondition(search: string): SQL | undefined {
  if (!search) return undefined;
  const key = search.replace(/\s+/g, '').toLowerCase();
  if (key in FILTERS) return FILTERS[key];
  const pattern = likePattern(search);
  return or(
    sql`${whatsapps.pushname} LIKE ${pattern} ESCAPE '\\'`,
    sql`${whatsapps.phonenumber} LIKE ${pattern} ESCAPE '\\'`,
    sql`${whatsapps.clientid} LIKE ${pattern} ESCAPE '\\'`,
  );
}

/** Whose accounts a call covers: admin and dev any user (null = everyone); others only their own. */
function scopeFor(caller: AuthUser, requested: number | null): number | null {
  if (isStaffOrAbove(caller.role)) return requested;
  return ownUserId(caller, requested);
}

/** With `synced`, the listed rows' states are first re-read from the gateway. */
function syncStates(ctx: AppContext, rows: WhatsappRow[]): WhatsappRow[] {
  return rows.map((row) => {
    const live = ctx.gateway.state(row.deviceId);
    const state = live ?? (row.state === 'connected' || row.state === 'sending' ? 'unknown' : null);
    if (!state || state === row.state || (row.state === 'sending' && state === 'connected')) return row;
    applyConnectionState(ctx, row, state);
    return accountById(ctx, row.id) ?? row;
  });
}

function withOwner(ctx: AppContext, rows: WhatsappRow[]) {
  const ids = [...new Set(rows.map((r) => r.userId))];
  const owners = ids.length
    ? ctx.db.select({ id: users.id, firstname: users.firstname, lastname: users.lastname, email: users.email }).from(users).where(inArray(users.id, ids)).all()
    : [];
  const byId = new Map(owners.map((o) => [o.id, o]));
  return rows.map((r) => ({ ...whatsappView(r), user: byId.get(r.userId) ?? null }));
}

export function listAccounts(ctx: AppContext, caller: AuthUser, requestedUser: number | null, synced: boolean) {
  const scope = scopeFor(caller, requestedUser);
  let rows = ctx.db
    .select()
    .from(whatsapps)
    .where(scope === null ? undefined : eq(whatsapps.userId, scope))
    .orderBy(desc(whatsapps.id))
    .all();
  if (synced) rows = syncStates(ctx, rows);
  return { list: rows.map(whatsappView) };
}

export function listPerPage(ctx: AppContext, caller: AuthUser, input: { page: number; userId: number | null; synced: boolean; search: string }) {
  const scope = scopeFor(caller, input.userId);
  const where = and(scope === null ? undefined : eq(whatsapps.userId, scope), searchCondition(input.search));
  const { limit, offset } = pageWindow(input.page);
  let total: number;
  let rows: WhatsappRow[];
  if (input.search) {
    // One scan for a search: every matching id (the total), then the page's rows by id.
    const ids = ctx.db.select({ id: whatsapps.id }).from(whatsapps).where(where).orderBy(desc(whatsapps.id)).all();
    total = ids.length;
    const page = ids.slice(offset, offset + limit).map((r) => r.id);
    rows = page.length ? ctx.db.select().from(whatsapps).where(inArray(whatsapps.id, page)).orderBy(desc(whatsapps.id)).all() : [];
  } else {
    total = ctx.db.select({ n: count() }).from(whatsapps).where(where).get()?.n ?? 0;
    rows = ctx.db.select().from(whatsapps).where(where).orderBy(desc(whatsapps.id)).limit(limit).offset(offset).all();
  }
  if (input.synced) rows = syncStates(ctx, rows);
  return paged(withOwner(ctx, rows), total, input.page);
}

export function getAccount(ctx: AppContext, caller: AuthUser, id: number) {
  return { whatsapp: withOwner(ctx, [accountFor(ctx, caller, id)])[0] };
}

/** Active = connected (or sending) and not suspended; every other account counts as not active. */
export function connectionCounts(ctx: AppContext, caller: AuthUser, requestedUser: number | null) {
  const scope = scopeFor(caller, requestedUser);
  const active = and(inArray(whatsapps.state, ['connected', 'sending']), eq(whatsapps.suspended, false));
  const row = ctx.db
    .select({ all: count(), connected: sql<number>`coalesce(sum(case when ${active} then 1 else 0 end), 0)` })
    .from(whatsapps)
    .where(scope === null ? undefined : eq(whatsapps.userId, scope))
    .get();
  const connected = Number(row?.connected ?? 0);
  return { connectedCount: connected, disconnectedCount: (row?.all ?? 0) - connected };
}

/** PUT status: only back to idle; a blast starts through start-blasting so the engine and the flag agree. */
export function updateStatus(ctx: AppContext, caller: AuthUser, id: number, status: 'idle') {
  const row = accountFor(ctx, caller, id);
  ctx.db.update(whatsapps).set({ status, updatedAt: new Date() }).where(eq(whatsapps.id, row.id)).run();
  const updated = accountById(ctx, row.id)!;
  if (row.status !== status) emitAccount(ctx, 'idle', updated);
  return { data: whatsappView(updated) };
}

/**
 * PUT interval: the account's own pause between two sends, in seconds (null = the member's or settings').
 * Admin and dev set it outright (audited). An owner may only lengthen the pause: never below their own
 * or the settings' minimum, and never over an operator's value.
 */
export async function updateInterval(ctx: AppContext, caller: AuthUser, id: number, interval: number | null) {
  const row = accountFor(ctx, caller, id);
  const operator = isStaffOrAbove(caller.role);
  if (!operator) {
    if (row.interval !== null && !row.ownInterval) throw new HttpError(403, 'Interval akun ini diatur oleh admin.');
    const floor = await minimumInterval(ctx, row.userId);
    if (interval !== null && interval < floor) {
      const msg = `Interval tidak boleh lebih singkat dari ${floor} detik.`;
      throw new HttpError(422, msg, { errors: { interval: msg } });
    }
  }
  ctx.db.transaction((tx) => {
    tx.update(whatsapps)
      .set({ interval, ownInterval: !operator && interval !== null, updatedAt: new Date() })
      .where(eq(whatsapps.id, row.id))
      .run();
    if (operator) {
      writeAudit(tx, caller.id, row.userId, 'whatsapp.interval', { whatsappId: row.id, clientid: row.clientid, from: row.interval, to: interval });
    }
  });
  return { data: whatsappView(accountById(ctx, row.id)!) };
}

/** The shortest pause the member's range (or else the settings') allows. */
async function minimumInterval(ctx: AppContext, userId: number): Promise<number> {
  const member = ctx.db.select({ min: users.blastIntervalMin, max: users.blastIntervalMax }).from(users).where(eq(users.id, userId)).get();
  if (member && member.min !== null && member.max !== null) return member.min;
  return (await getSettings(ctx.db)).intervalMin;
}

/** Reset zeroes the account's counters and income; the member's totals and balance are unchanged. */
export function resetAccount(ctx: AppContext, caller: AuthUser, id: number) {
  const row = accountFor(ctx, caller, id);
  ctx.db
    .update(whatsapps)
    .set({ countSuccess: 0, countFail: 0, income: 0, updatedAt: new Date() })
    .where(eq(whatsapps.id, row.id))
    .run();
  const updated = accountById(ctx, row.id)!;
  emitAccount(ctx, 'reset', updated);
  emitAccount(ctx, 'count_synced', updated);
  return { data: whatsappView(updated), msg: 'Akun berhasil direset' };
}

/** Activated lifts a suspension while the account has been suspended fewer than three times. */
export function activateAccount(ctx: AppContext, caller: AuthUser, id: number) {
  const row = accountFor(ctx, caller, id);
  if (!row.suspended) throw new HttpError(409, 'Akun tidak sedang ditangguhkan');
  if (row.suspendedCount >= SUSPENSIONS_BEFORE_LOCK) {
    throw new HttpError(409, `Akun sudah ${row.suspendedCount}x ditangguhkan dan tidak dapat diaktifkan lagi`);
  }
  ctx.db.update(whatsapps).set({ suspended: false, updatedAt: new Date() }).where(eq(whatsapps.id, row.id)).run();
  const updated = accountById(ctx, row.id)!;
  emitAccount(ctx, 'activated', updated);
  return { data: whatsappView(updated), msg: 'Akun berhasil diaktifkan' };
}
