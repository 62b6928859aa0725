import { z } from 'zod';
import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { publicUser, type UserRow } from '../users/view';
import { issueDevice } from './device';
import { SHORT_SESSION_S } from './jwt';
import { twoFactorLimiter } from './limiter';
import { currentUser, type AuthUser } from './middleware';
import { verifyPassword } from './password';
import { issueToken } from './service';
import { confirmEnrolment, disableTwoFactor, startEnrolment, twoFactorStatus } from './twofactor';
import { CODE_REQUIRED, readChallengeStep, verifyStep } from './twofactor-signin';

const PASSWORD_REQUIRED = 'Password is required.';
const EnableBody = z.object({ code: z.string({ message: CODE_REQUIRED }).trim().min(1, CODE_REQUIRED).max(40, CODE_REQUIRED) });
const DisableBody = z.object({ password: z.string({ message: PASSWORD_REQUIRED }).min(1, PASSWORD_REQUIRED).max(500, PASSWORD_REQUIRED) });

/**
 * Turning two-factor on or off ends the account's sessions (ASVS: a changed factor ends them); the
 * caller's own session goes on with the new token in the answer, as long as its old one would have.
 */
async function renewedSession(ctx: AppContext, caller: AuthUser, row: UserRow) {
  const long = caller.expiresAt - Date.now() > SHORT_SESSION_S * 1000;
  const token = await issueToken(ctx, row, long);
  void ctx.realtime.recheckUser(row.id).catch(() => undefined);
  return { token, user: publicUser(row) };
}

export function registerTwoFactorRoutes(api: Api, ctx: AppContext): void {
  /** The sign-in's second step: the challenge from /auth/login and a TOTP or recovery code. */
  api.post('/auth/2fa/verify', readChallengeStep(ctx), twoFactorLimiter(ctx.redis), async (req, res) => {
    const answer = await verifyStep(ctx, res.locals);
    issueDevice(ctx.config.secretKey, req, res, answer.user.email);
    res.json(answer);
  });

  api.get('/auth/2fa', async (req, res) => {
    res.json(await twoFactorStatus(ctx, currentUser(req).id));
  });

  /** A new secret: the QR code's otpauth:// address and the secret to type by hand. */
  api.post('/auth/2fa/setup', async (req, res) => {
    res.json(await startEnrolment(ctx, currentUser(req).id));
  });

  /** The first code confirms the secret; the ten recovery codes are in this answer only. */
  api.post('/auth/2fa/enable', async (req, res) => {
    const caller = currentUser(req);
    const { code } = EnableBody.parse(req.body ?? {});
    const { codes, row } = await confirmEnrolment(ctx, caller.id, code);
    res.json({ ...(await renewedSession(ctx, caller, row)), recovery_codes: codes, msg: 'Two-factor sign-in is on' });
  });

  api.post('/auth/2fa/disable', async (req, res) => {
    const caller = currentUser(req);
    const { password } = DisableBody.parse(req.body ?? {});
    const row = await disableTwoFactor(ctx, caller.id, (hash) => verifyPassword(password, hash));
    res.json({ ...(await renewedSession(ctx, caller, row)), msg: 'Two-factor sign-in is off' });
  });
}
