import crypto from 'node:crypto';
import { lt } from 'drizzle-orm';
import { transaction, type Db } from '../db/client';
import { revokedTokens } from '../db/schema';

/** Tokens are stored by hash: the table never holds a usable token. */
export const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');

/** Sign-out: the token stops working for HTTP and sockets until it would have expired anyway. */
export async function revokeToken(db: Db, token: string, expiresAt: number): Promise<void> {
  await transaction(db, async (tx) => {
    await tx.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()));
    await tx.insert(revokedTokens).values({ tokenHash: tokenHash(token), expiresAt: new Date(expiresAt) }).onConflictDoNothing();
  });
}
