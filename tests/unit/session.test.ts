// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endSession, getSessionUser, getToken, startSession } from '../../client/src/lib/session';
import { TEN_YEARS_S } from '../../client/src/lib/cookies';
import { captureReferral } from '../../client/src/lib/referral';

describe('session cookies', () => {
  const written: string[] = [];
  let restore: (() => void) | null = null;

  beforeEach(() => {
    written.length = 0;
    const desc = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get: () => desc.get!.call(document) as string,
      set: (v: string) => {
        written.push(v);
        desc.set!.call(document, v);
      },
    });
    // Removing the own property brings back Document.prototype's cookie accessor.
    restore = () => {
      delete (document as unknown as Record<string, unknown>).cookie;
    };
  });
  afterEach(() => restore?.());

  it('signing in writes authToken and user for ten years at path / and removes analytics', () => {
    startSession('tok123', { id: 7, firstname: 'A', lastname: 'B', email: 'a@b.c', role: 'member' });
    expect(TEN_YEARS_S).toBe(60 * 60 * 24 * 365 * 10);
    const token = written.find((c) => c.startsWith('authToken='))!;
    const user = written.find((c) => c.startsWith('user='))!;
    expect(token).toContain(`max-age=${TEN_YEARS_S}`);
    expect(token).toContain('path=/');
    expect(user).toContain(`max-age=${TEN_YEARS_S}`);
    expect(written.some((c) => c.startsWith('analytics=') && c.includes('max-age=0'))).toBe(true);
    expect(getToken()).toBe('tok123');
    expect(getSessionUser()?.id).toBe(7);
  });

  it('signing out removes the token only', () => {
    startSession('tok123', { id: 7, firstname: 'A', lastname: 'B', email: 'a@b.c', role: 'member' });
    endSession();
    expect(getToken()).toBeNull();
    expect(getSessionUser()?.email).toBe('a@b.c');
  });
});

describe('referral capture', () => {
  it('stores ?referral= and removes it from the address without a reload', () => {
    window.history.replaceState(null, '', '/signup?referral=ABC123&x=1#top');
    captureReferral();
    expect(localStorage.getItem('referral_code')).toBe('ABC123');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/signup?x=1#top');
  });
});
