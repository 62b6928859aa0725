import crypto from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { revokedTokens } from '../db/schema';

/** Tokens are stored by hash: the table never holds a usable token. */
const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');

/** Sign-out: the token stops working for HTTP and sockets until it would have expired anyway. */
export function revokeToken(db: Db, token: string, expiresAt: number): void {
  db.transaction((tx) => {
    tx.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date())).run();
    tx.insert(revokedTokens).values({ tokenHash: tokenHash(token), expiresAt: new Date(expiresAt) }).onConflictDoNothing().run();
  });
}

export function isRevoked(db: Db, token: string): boolean {
  return db.select({ h: revokedTokens.tokenHash }).from(revokedTokens).where(eq(revokedTokens.tokenHash, tokenHash(token))).get() !== undefined;
}
