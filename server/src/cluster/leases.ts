import crypto from 'node:crypto';
import os from 'node:os';
import { and, eq, lt, notExists, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { leases, whatsapps } from '../db/schema';

/** What a node can own: an account's send loop, or a generator/validator job. */
export type LeaseKind = 'account' | 'generator' | 'validator';

/** How long a lease lives without renewal; a dead node's work is taken over after this at most. */
export const LEASE_TTL_MS = 10_000;

/** This process's name in the leases table: stable for its life, unique across nodes and restarts. */
export function newNodeId(prefix = process.env.NODE_ID): string {
  return `${prefix ?? os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
}

/**
 * Takes the lease on one piece of work when nobody holds it, its holder let it expire, or this node
 * already holds it (then it is renewed). Resolves true when this node owns it afterwards. One statement,
 * so two nodes racing for the same work can never both win.
 */
export async function acquireLease(db: Db, kind: LeaseKind, workId: number, node: string, ttlMs = LEASE_TTL_MS): Promise<boolean> {
  const now = Date.now();
  const expiresAt = new Date(now + ttlMs);
  const won = await db
    .insert(leases)
    .values({ kind, workId, node, expiresAt })
    .onConflictDoUpdate({
      target: [leases.kind, leases.workId],
      set: { node, expiresAt },
      setWhere: or(eq(leases.node, node), lt(leases.expiresAt, new Date(now))),
    })
    .returning({ node: leases.node });
  return won.length === 1 && won[0]?.node === node;
}

/**
 * Extends every lease this node holds; resolves with the ones it still holds (kind:id), so the caller
 * can stop work whose lease another node took after this one stalled past the expiry.
 */
export async function renewLeases(db: Db, node: string, ttlMs = LEASE_TTL_MS): Promise<Set<string>> {
  const now = Date.now();
  const rows = await db
    .update(leases)
    .set({ expiresAt: new Date(now + ttlMs) })
    .where(eq(leases.node, node))
    .returning({ kind: leases.kind, workId: leases.workId });
  return new Set(rows.map((r) => `${r.kind}:${r.workId}`));
}

/** Gives one piece of work back (only if this node holds it). */
export async function releaseLease(db: Db, kind: LeaseKind, workId: number, node: string): Promise<void> {
  await db.delete(leases).where(and(eq(leases.kind, kind), eq(leases.workId, workId), eq(leases.node, node)));
}

/** Gives everything back, on a graceful shutdown, so other nodes resume at once instead of after the expiry. */
export async function releaseAllLeases(db: Db, node: string): Promise<number> {
  const gone = await db.delete(leases).where(eq(leases.node, node)).returning({ workId: leases.workId });
  return gone.length;
}

/**
 * Up to `limit` accounts whose row says 'sending' and that no live lease covers (their node died or
 * gave them back), in id order. The database does the anti-join on whatsapps_status_idx and the
 * leases' key, so a sweep never reads the sending rows that are being served.
 */
export async function unleasedSendingAccounts(db: Db, now: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(
      and(
        eq(whatsapps.status, 'sending'),
        notExists(
          db
            .select({ one: sql`1` })
            .from(leases)
            .where(and(eq(leases.kind, 'account'), eq(leases.workId, whatsapps.id), sql`${leases.expiresAt} >= ${now}`)),
        ),
      ),
    )
    .orderBy(whatsapps.id)
    .limit(limit);
  return rows.map((r) => r.id);
}
