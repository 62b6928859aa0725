import crypto from 'node:crypto';

/** `sha256=` + the hex HMAC-SHA256 of the raw body under the Meta app's secret, as Meta signs it. */
export function signBody(appSecret: string, body: Buffer | string): string {
  return `sha256=${crypto.createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** Whether `header` (X-Hub-Signature-256) signs exactly these bytes; compared in constant time. */
export function signatureMatches(appSecret: string, body: Buffer, header: string | undefined): boolean {
  if (!header || !/^sha256=[0-9a-f]{64}$/i.test(header.trim())) return false;
  const expected = Buffer.from(signBody(appSecret, body));
  const given = Buffer.from(header.trim().toLowerCase());
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** Meta's subscription check: the challenge to echo when the mode and verify token are right, else null. */
export function verificationChallenge(verifyToken: string | null, query: Record<string, unknown>): string | null {
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (!verifyToken || mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string') return null;
  const a = Buffer.from(verifyToken);
  const b = Buffer.from(token);
  return a.length === b.length && crypto.timingSafeEqual(a, b) ? challenge : null;
}
