import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from '../../server/src/lib/secrets';

const key = new Uint8Array(32).fill(3);

describe('secrets at rest', () => {
  it('round-trips a token in the v1 format, with a fresh IV each time', () => {
    const a = encryptSecret(key, 'EAAG-token-ü');
    const b = encryptSecret(key, 'EAAG-token-ü');
    expect(a).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('EAAG');
    expect(decryptSecret(key, a)).toBe('EAAG-token-ü');
    expect(decryptSecret(key, b)).toBe('EAAG-token-ü');
  });

  it('refuses a tampered value, another key and a malformed value', () => {
    const stored = encryptSecret(key, 'secret-token');
    const [v, iv, tag, data] = stored.split(':') as [string, string, string, string];
    const flipped = Buffer.from(data, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptSecret(key, [v, iv, tag, flipped.toString('base64')].join(':'))).toThrow();
    const badTag = Buffer.from(tag, 'base64');
    badTag[0] = badTag[0]! ^ 1;
    expect(() => decryptSecret(key, [v, iv, badTag.toString('base64'), data].join(':'))).toThrow();
    expect(() => decryptSecret(new Uint8Array(32).fill(4), stored)).toThrow();
    expect(() => decryptSecret(key, 'secret-token')).toThrow();
    expect(() => decryptSecret(key, `v2:${iv}:${tag}:${data}`)).toThrow();
  });
});
