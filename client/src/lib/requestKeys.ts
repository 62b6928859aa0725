/**
 * Money calls carry an `Idempotency-Key`, so a request whose answer was lost (the network failed after the
 * server made it) is made once however often it is sent again: sending the same body again reuses the key
 * until the server has answered; once it has (success or refusal), the next request gets a new key.
 */
export const MONEY_CALLS = new Set(['/admin/withdraw/request', '/admin/bonus/create']);

const pending = new Map<string, { body: string; key: string }>();

/** 32 hex characters; getRandomValues works on a plain-http install too (randomUUID needs a secure page). */
function newKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The key for this body on this call: the pending one when the body is the same, else a new one. */
export function keyFor(path: string, body: unknown): string {
  const text = JSON.stringify(body ?? null);
  const last = pending.get(path);
  if (last && last.body === text) return last.key;
  const key = newKey();
  pending.set(path, { body: text, key });
  return key;
}

/** The server answered the call: its key is spent. */
export function answered(path: string): void {
  pending.delete(path);
}
