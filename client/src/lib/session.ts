import { isRole, type Role } from '../../../common/roles';
import { getCookie, removeCookie, setCookie } from './cookies';

export interface SessionUser {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  role: Role;
  referral_code?: string;
  [key: string]: unknown;
}

export function getToken(): string | null {
  return getCookie('authToken');
}

export function getSessionUser(): SessionUser | null {
  const raw = getCookie('user');
  if (!raw) return null;
  try {
    return JSON.parse(raw) as SessionUser;
  } catch {
    return null;
  }
}

/** Signed in as far as the browser knows: a token and a stored user with a role. */
export function hasSession(): boolean {
  return Boolean(getToken()) && isRole(getSessionUser()?.role);
}

/**
 * What the user cookie keeps: the spec's user (id, names, email, role) and the referral code the referral
 * screen shows. Not the bank details, income or fees a login answer also carries: the cookie outlives the
 * session (sign-out leaves it), so on a shared computer it must not hold them.
 */
export function cookieUser(user: SessionUser): SessionUser {
  const { id, firstname, lastname, email, role, referral_code } = user;
  return { id, firstname, lastname, email, role, ...(referral_code ? { referral_code } : {}) };
}

/** Signed in: both cookies set for ten years; the analytics cookie is removed. */
export function startSession(token: string, user: SessionUser): void {
  setCookie('authToken', token);
  setCookie('user', JSON.stringify(cookieUser(user)));
  removeCookie('analytics');
}

export function updateSessionUser(user: SessionUser): void {
  setCookie('user', JSON.stringify(cookieUser(user)));
}

/** Signing out removes the token only; the user cookie stays, as the spec says (trimmed to what it may keep). */
export function endSession(): void {
  removeCookie('authToken');
  const user = getSessionUser();
  if (user) setCookie('user', JSON.stringify(cookieUser(user)));
}
