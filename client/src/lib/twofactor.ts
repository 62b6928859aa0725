import { api } from './http';
import type { SessionUser } from './session';

/** The two-factor calls (server/src/auth/twofactor-routes.ts). */
export interface TwoFactorStatus {
  enabled: boolean;
  required: boolean;
  recovery_codes_left: number;
}

export interface SessionAnswer {
  token: string;
  user: SessionUser;
}

export const twoFactorStatus = () => api<TwoFactorStatus>('/auth/2fa');

export const startTwoFactor = () => api<{ secret: string; uri: string }>('/auth/2fa/setup', { method: 'POST', body: {} });

/** Turns it on; the answer's token replaces the session's (the others have ended) and the codes show once. */
export const enableTwoFactor = (code: string) => api<SessionAnswer & { recovery_codes: string[] }>('/auth/2fa/enable', { method: 'POST', body: { code } });

export const disableTwoFactor = (password: string) => api<SessionAnswer>('/auth/2fa/disable', { method: 'POST', body: { password } });

/** The sign-in's second step. */
export const verifyTwoFactor = (challenge: string, code: string) =>
  api<SessionAnswer & { recovery_code_used?: boolean }>('/auth/2fa/verify', { method: 'POST', body: { challenge, code }, anonymous: true });
