import { eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { removedRecipients } from '../db/schema';
import { greatest, one } from '../db/raw';

/** The longest recipient cooldown a setting can ask for (8,760 hours): older sends no longer matter. */
const LONGEST_COOLDOWN_MS = 8760 * 3600 * 1000;

/**
 * Remembers the last send to a number whose list row is being deleted (inside the delete's
 * transaction), so the number added back later keeps its recipient cooldown. Sends older than the
 * longest cooldown are forgotten on the way.
 */
export async function rememberRemoved(tx: Db, number: string, lastSent: Date | null): Promise<void> {
  const oldest = new Date(Date.now() - LONGEST_COOLDOWN_MS);
  await tx.delete(removedRecipients).where(lt(removedRecipients.lastSent, oldest));
  if (!lastSent || lastSent < oldest) return;
  await tx
    .insert(removedRecipients)
    .values({ number, lastSent })
    .onConflictDoUpdate({ target: removedRecipients.number, set: { lastSent: greatest(sql`excluded.last_sent`, removedRecipients.lastSent) } });
}

/** The remembered last send of a number being added back (and forgets it), or null. Inside the insert's transaction. */
export async function takeRemoved(tx: Db, number: string): Promise<Date | null> {
  const row = await one(tx.select({ lastSent: removedRecipients.lastSent }).from(removedRecipients).where(eq(removedRecipients.number, number)).limit(1));
  if (!row) return null;
  await tx.delete(removedRecipients).where(eq(removedRecipients.number, number));
  return row.lastSent;
}
