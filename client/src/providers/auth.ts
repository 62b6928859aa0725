import type { AuthProvider } from '@refinedev/core';
import { api, ApiError } from '../lib/http';
import { isRole } from '../../../common/roles';
import { endSession, getSessionUser, getToken, startSession, type SessionUser } from '../lib/session';

interface AuthAnswer {
  token: string;
  user: SessionUser;
  msg?: string;
}

/** After a right password: the code step (`challenge`), or a sign-in that must set up two-factor first. */
interface LoginAnswer extends Partial<AuthAnswer> {
  two_factor?: 'code' | 'setup';
  challenge?: string;
}

/** Where a sign-in whose role must use two-factor (REQUIRE_2FA) sets it up before anything else. */
export const TWO_FACTOR_SETUP_PATH = '/two-factor/setup';

function failure(err: unknown, fallback: string) {
  if (err instanceof ApiError) {
    const message = err.statusCode === 0 ? 'Internal server error' : err.message || fallback;
    return { success: false as const, error: { name: 'Error', message, errors: err.errors } as Error };
  }
  return { success: false as const, error: { name: 'Error', message: 'Internal server error' } as Error };
}

// A call cut off because the page itself is going away is not a failed validation.
let leavingPage = false;
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => {
    leavingPage = true;
  });
  window.addEventListener('pageshow', () => {
    leavingPage = false;
  });
}

export type TokenCheck = 'valid' | 'invalid' | 'failed';

/**
 * Validates the stored token with the server: `isvalid` false (or 'false') is 'invalid'; a call that
 * fails is 'failed' (the spec logs out with 'Internal server error'); a call cut off by leaving the page
 * counts as valid.
 */
export async function validateToken(token: string): Promise<TokenCheck> {
  try {
    const res = await api<{ isvalid: boolean | string }>('/auth/validate', { method: 'POST', body: { token }, anonymous: true });
    return res.isvalid === false || res.isvalid === 'false' ? 'invalid' : 'valid';
  } catch {
    return leavingPage ? 'valid' : 'failed';
  }
}

export const authProvider: AuthProvider = {
  login: async (params: { email?: string; password?: string; remember?: boolean }) => {
    try {
      const res = await api<LoginAnswer>('/auth/login', {
        method: 'POST',
        body: { email: params.email ?? '', password: params.password ?? '', remember: Boolean(params.remember) },
        anonymous: true,
        fallback: 'Error signing in',
      });
      // Two-factor on: the sign-in page asks for the code (pages/auth/components/TwoFactorStep.tsx).
      if (res.two_factor === 'code' && res.challenge) return { success: false, twoFactorChallenge: res.challenge };
      if (!res.token || !res.user) return failure(null, 'Error signing in');
      startSession(res.token, res.user);
      return { success: true, redirectTo: res.two_factor === 'setup' ? TWO_FACTOR_SETUP_PATH : '/dashboard' };
    } catch (err) {
      return failure(err, 'Error signing in');
    }
  },
  register: async (params: Record<string, unknown>) => {
    try {
      const res = await api<AuthAnswer>('/auth/register', {
        method: 'POST',
        body: params,
        anonymous: true,
        fallback: 'Failed to sign up. Please try again.',
      });
      startSession(res.token, res.user);
      return { success: true, redirectTo: '/dashboard' };
    } catch (err) {
      return failure(err, 'Failed to sign up. Please try again.');
    }
  },
  logout: async () => {
    const token = getToken();
    if (token) {
      // Closing this session's live connections is best effort; the cookie goes either way.
      void api('/auth/logout', { method: 'POST' }).catch(() => undefined);
    }
    endSession();
    return { success: true, redirectTo: '/signin' };
  },
  /**
   * A token and a user with a role, and the server agreeing the token is valid. `isvalid` false ends the
   * session; a failed call ends it too, and /signin says 'Internal server error' (error name 'serverError').
   */
  check: async () => {
    const token = getToken();
    if (!token || !isRole(getSessionUser()?.role)) return { authenticated: false, redirectTo: '/signin' };
    const check = await validateToken(token);
    if (check === 'valid') return { authenticated: true };
    endSession();
    return { authenticated: false, redirectTo: '/signin', error: { name: check === 'failed' ? 'serverError' : 'invalid', message: '' } };
  },
  onError: async (error: { statusCode?: number; code?: number | string }) => {
    // A 401 ends the session there is; a visitor without one (the open /sim page) is only refused.
    if (error?.statusCode === 401 && getToken()) return { logout: true, redirectTo: '/signin' };
    // A sign-in held until it sets up two-factor (REQUIRE_2FA) goes back to the set-up.
    if (error?.code === 'two_factor_setup_required') return { redirectTo: TWO_FACTOR_SETUP_PATH };
    return {};
  },
  getIdentity: async () => getSessionUser(),
  getPermissions: async () => getSessionUser()?.role ?? null,
};
