import { count, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
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
  | 'bonus.create'
  | 'bonus.delete'
  | 'withdraw.status'
  | 'settings.update'
  | 'level.create'
  | 'level.update'
  | 'level.delete'
  | 'whatsapp.interval';

/**
 * One audit row. Call it with the transaction that makes the change, so the change and its record
 * commit together or not at all.
 */
export async function writeAudit(
  tx: Tx | Db,
  actorId: number,
  targetUserId: number | null,
  action: AuditAction,
  details: Record<string, unknown>,
): Promise<void> {
  await tx.insert(auditLog).values({ actorId, targetUserId, action, details });
}

const actor = alias(users, 'actor');
const target = alias(users, 'target');

const person = (u: { id: number | null; firstname: string | null; lastname: string | null; email: string | null } | null) =>
  u && u.id !== null ? { id: u.id, firstname: u.firstname ?? '', lastname: u.lastname ?? '', email: u.email ?? '' } : null;

/** Newest first, ten a page. */
export async function auditPerPage(ctx: AppContext, page: number) {
  const total = (await one(ctx.db.select({ n: count() }).from(auditLog)))?.n ?? 0;
  const { limit, offset } = pageWindow(page);
  const rows = await ctx.db
    .select({
      a: auditLog,
      actor: { id: actor.id, firstname: actor.firstname, lastname: actor.lastname, email: actor.email },
      target: { id: target.id, firstname: target.firstname, lastname: target.lastname, email: target.email },
    })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorId))
    .leftJoin(target, eq(target.id, auditLog.targetUserId))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit)
    .offset(offset);
  return paged(
    rows.map((r) => ({
      id: r.a.id,
      action: r.a.action,
      details: r.a.details,
      createdAt: r.a.createdAt,
      actorId: r.a.actorId,
      targetUserId: r.a.targetUserId,
      actor: person(r.actor),
      target: person(r.target),
    })),
    total,
    page,
  );
}
