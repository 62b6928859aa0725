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

/** Signed in: both cookies set for ten years; the analytics cookie is removed. */
export function startSession(token: string, user: SessionUser): void {
  setCookie('authToken', token);
  setCookie('user', JSON.stringify(user));
  removeCookie('analytics');
}

export function updateSessionUser(user: SessionUser): void {
  setCookie('user', JSON.stringify(user));
}

/** Signing out removes the token only; the user cookie stays, as the spec says. */
export function endSession(): void {
  removeCookie('authToken');
}
