import crypto from 'node:crypto';

/**
 * Secrets at rest (Cloud API access tokens): AES-256-GCM under the server's secret key, stored as
 * `v1:{iv}:{tag}:{ciphertext}` (base64). The version prefix leaves room to rotate the scheme.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function checkKey(key: Uint8Array): void {
  if (key.length !== 32) throw new Error('The secret key must be 32 bytes');
}

export function encryptSecret(key: Uint8Array, plain: string): string {
  checkKey(key);
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64'), tag.toString('base64'), ciphertext.toString('base64')].join(':');
}

/** The plain secret; throws when the value is malformed, was encrypted under another key, or was altered. */
export function decryptSecret(key: Uint8Array, stored: string): string {
  checkKey(key);
  const parts = stored.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('Not an encrypted secret');
  const [, ivB64, tagB64, dataB64] = parts as [string, string, string, string];
  const iv = Buffer.from(ivB64, 'base64');
  const tag = Buffer.from(tagB64, 'base64');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('Not an encrypted secret');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(Buffer.from(dataB64, 'base64')), decipher.final()]).toString('utf8');
}
