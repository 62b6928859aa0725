// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { endSession, getSessionUser, getToken, startSession, updateSessionUser, type SessionUser } from './session';

const fromLogin = {
  id: 7,
  firstname: 'Budi',
  lastname: 'Santoso',
  email: 'budi@demo.test',
  role: 'member',
  referral_code: 'BUDI2024',
  account_bank: 'BCA',
  account_number: '1234567890',
  account_name: 'Budi Santoso',
  income: 50_000,
  blast_fee: 0,
} as SessionUser;

afterEach(() => {
  for (const c of document.cookie.split(';')) document.cookie = `${c.split('=')[0]!.trim()}=; max-age=0; path=/`;
});

describe('the user cookie', () => {
  it("keeps the spec's user and the referral code, never the bank details or money", () => {
    startSession('token-1', fromLogin);
    expect(getToken()).toBe('token-1');
    expect(getSessionUser()).toEqual({ id: 7, firstname: 'Budi', lastname: 'Santoso', email: 'budi@demo.test', role: 'member', referral_code: 'BUDI2024' });
    updateSessionUser({ ...fromLogin, firstname: 'Budiman' });
    expect(getSessionUser()).not.toHaveProperty('account_number');
    expect(getSessionUser()?.firstname).toBe('Budiman');
  });

  it('stays after sign-out, as the spec says, but an older cookie with bank details is trimmed then', () => {
    document.cookie = `user=${encodeURIComponent(JSON.stringify(fromLogin))}; path=/`;
    document.cookie = 'authToken=token-2; path=/';
    endSession();
    expect(getToken()).toBeNull();
    expect(getSessionUser()).toEqual({ id: 7, firstname: 'Budi', lastname: 'Santoso', email: 'budi@demo.test', role: 'member', referral_code: 'BUDI2024' });
  });
});
