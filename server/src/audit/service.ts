import { count, desc, inArray } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { one } from '../db/raw';
import { auditLog, users } from '../db/schema';
import { paged, pageWindow } from '../lib/paging';

/** What the audit log records; the screen shows these keys. */
export type AuditAction =
  | 'user.role'
  | 'user.password'
  | 'user.fee'
  | 'user.interval'
  | 'user.bank'
  | 'bonus.create'
  | 'bonus.delete'
  | 'withdraw.request'
  | 'withdraw.status'
  | 'settings.update'
  | 'level.create'
  | 'level.update'
  | 'level.delete'
  | 'whatsapp.interval'
  | 'optout.create'
  | '2fa.enable'
  | '2fa.disable'
  | '2fa.reset';

/**
 * One audit row. Call it with the transaction that makes the change, so the change and its record
 * commit together or not at all.
 */
/** A bank account as the audit log records it (a bank change, the account a withdrawal names). */
export const auditedAccount = (r: { accountBank?: string | null; accountNumber?: string | null; accountName?: string | null } | null) => ({
  bank: r?.accountBank ?? null,
  number: r?.accountNumber ?? null,
  name: r?.accountName ?? null,
});

export async function writeAudit(
  tx: Tx | Db,
  /** null: done outside the console (npm run user:create). */
  actorId: number | null,
  targetUserId: number | null,
  action: AuditAction,
  details: Record<string, unknown>,
): Promise<void> {
  await tx.insert(auditLog).values({ actorId, targetUserId, action, details });
}

type Person = { id: number; firstname: string; lastname: string; email: string };

const person = (people: Map<number, Person>, id: number | null) => {
  const u = id === null ? undefined : people.get(id);
  return u ? { id: u.id, firstname: u.firstname ?? '', lastname: u.lastname ?? '', email: u.email ?? '' } : null;
};

/** Newest first, ten a page. The page's actors and targets are read in a second query by id. */
export async function auditPerPage(ctx: AppContext, page: number) {
  const total = (await one(ctx.db.select({ n: count() }).from(auditLog)))?.n ?? 0;
  const { limit, offset } = pageWindow(page);
  const rows = await ctx.db.select().from(auditLog).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit).offset(offset);
  const ids = [...new Set(rows.flatMap((r) => [r.actorId, r.targetUserId]).filter((id): id is number => id !== null))];
  const found = ids.length
    ? await ctx.db.select({ id: users.id, firstname: users.firstname, lastname: users.lastname, email: users.email }).from(users).where(inArray(users.id, ids))
    : [];
  const people = new Map(found.map((u) => [u.id, u]));
  return paged(
    rows.map((r) => ({
      id: r.id,
      action: r.action,
      details: r.details,
      createdAt: r.createdAt,
      actorId: r.actorId,
      targetUserId: r.targetUserId,
      actor: person(people, r.actorId),
      target: person(people, r.targetUserId),
    })),
    total,
    page,
  );
}
