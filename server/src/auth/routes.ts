import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from './middleware';
import { revokeToken } from './revoked';
import { issueDevice, readDevice } from './device';
import { signInAccountLimiter, signInDeviceLimiter, signInIpLimiter, signInLimiter, signUpLimiter } from './limiter';
import { checkPassword, LoginBody, register, RegisterBody, validate } from './service';
import { afterPassword } from './twofactor-signin';
import { registerTwoFactorRoutes } from './twofactor-routes';

export function registerAuthRoutes(api: Api, ctx: AppContext): void {
  // The device cookie is read first: a browser that signed in to this account before counts on its own
  // limit, not on the address's or the account's (auth/device.ts).
  const limits = [readDevice(ctx), signInIpLimiter(ctx.redis), signInLimiter(ctx.redis), signInAccountLimiter(ctx.redis), signInDeviceLimiter(ctx.redis)];
  api.post('/auth/login', ...limits, async (req, res) => {
    const { user, remember } = await checkPassword(ctx, LoginBody.parse(req.body ?? {}));
    const answer = await afterPassword(ctx, user, remember);
    // A sign-in that still needs its code earns the device cookie with the code (auth/twofactor-routes.ts).
    if (answer.two_factor !== 'code') issueDevice(ctx.config.secretKey, req, res, user.email);
    res.json(answer);
  });

  api.post('/auth/register', signUpLimiter(ctx.config.signUpLimit, ctx.redis), async (req, res) => {
    res.status(201).json(await register(ctx, RegisterBody.parse(req.body ?? {})));
  });

  api.post('/auth/validate', async (req, res) => {
    const body = (req.body ?? {}) as { token?: unknown };
    res.json(await validate(ctx, body.token));
  });

  /** Signing out ends the token for HTTP and closes the live connections opened with it. */
  api.post('/auth/logout', async (req, res) => {
    const user = currentUser(req);
    await revokeToken(ctx.db, user.token, user.expiresAt);
    ctx.realtime.disconnectToken(user.token);
    res.json({ msg: 'Signed out' });
  });

  registerTwoFactorRoutes(api, ctx);
}
