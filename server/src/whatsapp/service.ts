import { and, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { schedulesOf } from '../engine/schedule';
import { engineFor } from '../engine/engine';
import type { AppContext } from '../context';
import { transaction } from '../db/client';
import { one, rawGet } from '../db/raw';
import { accountSearch, textSearch } from '../db/text-search';
import { users, whatsapps } from '../db/schema';
import { isStaffOrAbove, ownUserId, type AuthUser } from '../auth/middleware';
import { HttpError } from '../lib/errors';
import { paged, pageWindow } from '../lib/paging';
import { accountById, accountFor, emitAccount } from './access';
import { applyConnectionState, inDeviceOrder, liveStateOf, SUSPENSIONS_BEFORE_LOCK } from './events';
import { whatsappView, type WhatsappRow } from './view';
import { getSettings } from '../settings/service';
import { writeAudit } from '../audit/service';
import { accountsToday, NO_SENDS } from '../messagelog/service';

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
  return textSearch(accountSearch, search);
}

/** Whose accounts a call covers: admin and dev any user (null = everyone); others only their own. */
function scopeFor(caller: AuthUser, requested: number | null): number | null {
  if (isStaffOrAbove(caller.role)) return requested;
  return ownUserId(caller, requested);
}

/** The state the gateway reports for a listed row, when the row says something else. */
function staleState(ctx: AppContext, row: WhatsappRow) {
  const live = liveStateOf(ctx, row);
  const state = live ?? (row.state === 'connected' || row.state === 'sending' ? 'unknown' : null);
  if (!state || state === row.state || (row.state === 'sending' && state === 'connected')) return null;
  return state;
}

/**
 * With `synced`, the listed rows' states are first re-read from the gateway. Each correction is queued
 * behind the gateway's own events for that device, so the two never interleave their writes.
 */
async function syncStates(ctx: AppContext, rows: WhatsappRow[]): Promise<WhatsappRow[]> {
  const synced: WhatsappRow[] = [];
  for (const row of rows) {
    if (!staleState(ctx, row)) {
      synced.push(row);
      continue;
    }
    const updated = await inDeviceOrder(ctx, row.deviceId, async () => {
      const fresh = await accountById(ctx, row.id);
      if (!fresh) return row;
      const state = staleState(ctx, fresh);
      if (!state) return fresh;
      await applyConnectionState(ctx, fresh, state);
      return (await accountById(ctx, row.id)) ?? fresh;
    });
    synced.push(updated);
  }
  return synced;
}

async function withOwner(ctx: AppContext, rows: WhatsappRow[]) {
  const ids = [...new Set(rows.map((r) => r.userId))];
  const owners = ids.length
    ? await ctx.db.select({ id: users.id, firstname: users.firstname, lastname: users.lastname, email: users.email }).from(users).where(inArray(users.id, ids))
    : [];
  const byId = new Map(owners.map((o) => [o.id, o]));
  const schedules = await schedulesOf(ctx, rows.map((r) => r.id));
  const today = await accountsToday(ctx, rows.map((r) => r.id));
  // A list loaded while blasts wait for 'Jam Kirim' says so at once, as the next `window_wait` would.
  const blasting = (r: WhatsappRow) => r.status === 'sending' && !r.suspended;
  const windowWait = rows.some(blasting) ? await engineFor(ctx).windowWaitNow() : null;
  return rows.map((r) => {
    const at = schedules.get(r.id);
    return {
      ...whatsappView(r),
      user: byId.get(r.userId) ?? null,
      scheduled_at: at === undefined ? null : new Date(at).toISOString(),
      today: today.get(r.id) ?? NO_SENDS,
      windowOpensAt: windowWait !== null && blasting(r) ? windowWait : null,
    };
  });
}

export async function listAccounts(ctx: AppContext, caller: AuthUser, requestedUser: number | null, synced: boolean) {
  const scope = scopeFor(caller, requestedUser);
  let rows = await ctx.db
    .select()
    .from(whatsapps)
    .where(scope === null ? undefined : eq(whatsapps.userId, scope))
    .orderBy(desc(whatsapps.id));
  if (synced) rows = await syncStates(ctx, rows);
  return { list: rows.map(whatsappView) };
}

export async function listPerPage(ctx: AppContext, caller: AuthUser, input: { page: number; userId: number | null; synced: boolean; search: string }) {
  const scope = scopeFor(caller, input.userId);
  const where = and(scope === null ? undefined : eq(whatsapps.userId, scope), searchCondition(input.search));
  const { limit, offset } = pageWindow(input.page);
  let total: number;
  let rows: WhatsappRow[];
  if (input.search) {
    // One scan for a search: every matching id (the total), then the page's rows by id.
    const ids = await ctx.db.select({ id: whatsapps.id }).from(whatsapps).where(where).orderBy(desc(whatsapps.id));
    total = ids.length;
    const page = ids.slice(offset, offset + limit).map((r) => r.id);
    rows = page.length ? await ctx.db.select().from(whatsapps).where(inArray(whatsapps.id, page)).orderBy(desc(whatsapps.id)) : [];
  } else {
    total = Number((await one(ctx.db.select({ n: count() }).from(whatsapps).where(where)))?.n ?? 0);
    rows = await ctx.db.select().from(whatsapps).where(where).orderBy(desc(whatsapps.id)).limit(limit).offset(offset);
  }
  if (input.synced) rows = await syncStates(ctx, rows);
  return paged(await withOwner(ctx, rows), total, input.page);
}

export async function getAccount(ctx: AppContext, caller: AuthUser, id: number) {
  return { whatsapp: (await withOwner(ctx, [await accountFor(ctx, caller, id)]))[0] };
}

/**
 * Active = connected (or sending) and not suspended; every other account counts as not active. Read
 * from whatsapp_counts (everyone is user 0), which triggers on the accounts keep exact: no count over them.
 */
export async function connectionCounts(ctx: AppContext, caller: AuthUser, requestedUser: number | null) {
  const scope = scopeFor(caller, requestedUser);
  const row = await rawGet<{ total: number | string | null; active: number | string | null }>(
    ctx.db,
    sql`SELECT sum(total) AS total, sum(active) AS active FROM whatsapp_counts WHERE user_id = ${scope ?? 0}`,
  );
  const connected = Number(row?.active ?? 0);
  return { connectedCount: connected, disconnectedCount: Number(row?.total ?? 0) - connected };
}

/** PUT status: only back to idle; a blast starts through start-blasting so the engine and the flag agree. */
export async function updateStatus(ctx: AppContext, caller: AuthUser, id: number, status: 'idle') {
  const row = await accountFor(ctx, caller, id);
  await ctx.db.update(whatsapps).set({ status, updatedAt: new Date() }).where(eq(whatsapps.id, row.id));
  const updated = (await accountById(ctx, row.id))!;
  if (row.status !== status) emitAccount(ctx, 'idle', updated);
  return { data: whatsappView(updated) };
}

/**
 * PUT interval: the account's own pause between two sends, in seconds (null = the member's or settings').
 * Admin and dev set it outright (audited). An owner may only lengthen the pause: never below their own
 * or the settings' minimum, and never over an operator's value.
 */
export async function updateInterval(ctx: AppContext, caller: AuthUser, id: number, interval: number | null) {
  const row = await accountFor(ctx, caller, id);
  const operator = isStaffOrAbove(caller.role);
  if (!operator) {
    if (row.interval !== null && !row.ownInterval) throw new HttpError(403, 'Interval akun ini diatur oleh admin.');
    const floor = await minimumInterval(ctx, row.userId);
    if (interval !== null && interval < floor) {
      const msg = `Interval tidak boleh lebih singkat dari ${floor} detik.`;
      throw new HttpError(422, msg, { errors: { interval: msg } });
    }
  }
  await transaction(ctx.db, async (tx) => {
    await tx
      .update(whatsapps)
      .set({ interval, ownInterval: !operator && interval !== null, updatedAt: new Date() })
      .where(eq(whatsapps.id, row.id));
    if (operator) {
      await writeAudit(tx, caller.id, row.userId, 'whatsapp.interval', { whatsappId: row.id, clientid: row.clientid, from: row.interval, to: interval });
    }
  });
  return { data: whatsappView((await accountById(ctx, row.id))!) };
}

/** The shortest pause the member's range (or else the settings') allows. */
async function minimumInterval(ctx: AppContext, userId: number): Promise<number> {
  const member = await one(ctx.db.select({ min: users.blastIntervalMin, max: users.blastIntervalMax }).from(users).where(eq(users.id, userId)).limit(1));
  if (member && member.min !== null && member.max !== null) return member.min;
  return (await getSettings(ctx.db)).intervalMin;
}

/** Reset zeroes the account's counters and income; the member's totals and balance are unchanged. */
export async function resetAccount(ctx: AppContext, caller: AuthUser, id: number) {
  const row = await accountFor(ctx, caller, id);
  await ctx.db.update(whatsapps).set({ countSuccess: 0, countFail: 0, income: 0, updatedAt: new Date() }).where(eq(whatsapps.id, row.id));
  const updated = (await accountById(ctx, row.id))!;
  emitAccount(ctx, 'reset', updated);
  emitAccount(ctx, 'count_synced', updated);
  return { data: whatsappView(updated), msg: 'Akun berhasil direset' };
}

/** Activated lifts a suspension while the account has been suspended fewer than three times. */
export async function activateAccount(ctx: AppContext, caller: AuthUser, id: number) {
  const row = await accountFor(ctx, caller, id);
  if (!row.suspended) throw new HttpError(409, 'Akun tidak sedang ditangguhkan');
  if (row.suspendedCount >= SUSPENSIONS_BEFORE_LOCK) {
    throw new HttpError(409, `Akun sudah ${row.suspendedCount}x ditangguhkan dan tidak dapat diaktifkan lagi`);
  }
  await ctx.db.update(whatsapps).set({ suspended: false, updatedAt: new Date() }).where(eq(whatsapps.id, row.id));
  const updated = (await accountById(ctx, row.id))!;
  emitAccount(ctx, 'activated', updated);
  return { data: whatsappView(updated), msg: 'Akun berhasil diaktifkan' };
}
