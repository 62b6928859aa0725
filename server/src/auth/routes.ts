import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from './middleware';
import { revokeToken } from './revoked';
import { signInIpLimiter, signInLimiter, signUpLimiter } from './limiter';
import { login, LoginBody, register, RegisterBody, validate } from './service';

export function registerAuthRoutes(api: Api, ctx: AppContext): void {
  api.post('/auth/login', signInIpLimiter(ctx.redis), signInLimiter(ctx.redis), async (req, res) => {
    res.json(await login(ctx, LoginBody.parse(req.body ?? {})));
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
}
