import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import path from 'node:path';
import type { AppContext } from './context';
import { createApi } from './lib/api';
import { errorMiddleware, HttpError } from './lib/errors';
import { serveClient } from './lib/static';
import { requestLogger } from './lib/logger';
import type { Logger } from 'pino';
import { areaRoutes } from './routes';
import { WEBHOOK_PATHS } from './webhooks/routes';
import { bearerToken, userFromToken } from './auth/middleware';
import { canOpenPage } from '../../common/roles';
import { mountMetrics, requestMetrics } from './metrics/routes';
import { dialectOf } from './db/raw';
import { removeAllUploads } from './lib/upload';

/** The Express app, without listening, so tests run it in-process. */
export function createApp(ctx: AppContext, extra: { beforeApi?: (app: express.Express) => void; logger?: Logger } = {}) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  // First, so every answer (static files and 404s too) carries X-Request-Id and gets its log line.
  app.use(requestLogger(extra.logger));
  app.use(requestMetrics());
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          mediaSrc: ["'self'", 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'self'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
        },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  // Meta's webhooks are signed over their raw bytes: that path keeps its body for its own parser.
  const json = express.json({ limit: '1mb' });
  app.use((req, res, next) => (WEBHOOK_PATHS.has(req.path.toLowerCase().replace(/\/+$/, '')) ? next() : json(req, res, next)));

  // Uploaded media: served as plain files that can never run script (SVG included).
  app.use(
    '/uploads',
    (_req, res, next) => {
      res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox");
      res.setHeader('X-Content-Type-Options', 'nosniff');
      next();
    },
    uploadsGuard(ctx),
    express.static(path.join(ctx.config.dataDir, 'uploads'), { index: false, dotfiles: 'deny' }),
    // A file that is not there is a 404, not the console's page.
    (_req: Request, _res: Response, next: NextFunction) => next(new HttpError(404, 'Not found')),
  );

  extra.beforeApi?.(app);
  mountMetrics(app, ctx);

  // A single SQLite node owns its DATA_DIR: before its first request every temporary upload is a leftover.
  if (dialectOf(ctx.db) === 'sqlite') removeAllUploads(path.join(ctx.config.dataDir, 'tmp', 'imports'));
  const api = createApi(ctx);
  for (const register of areaRoutes) register(api, ctx);
  api.finish();
  app.use('/api', api.router);
  app.use('/api', (_req, _res, next) => next(new HttpError(404, 'Unknown API route')));

  serveClient(app, ctx.config.clientDist);

  app.use(errorMiddleware(ctx.log));
  return app;
}

/**
 * Whether a path under /uploads names the validators' folder as the static server will read it: decoded
 * (`%76alidators`, `validators%2F…`) and normalised (`//validators`, `./`, `x/../validators`), in any case.
 * A path that cannot be decoded counts as inside, so it is refused too.
 */
export function underValidators(requestPath: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return true;
  }
  const first = path.posix.normalize(`/${decoded.replaceAll('\\', '/')}`).split('/').find(Boolean);
  return first?.toLowerCase() === 'validators';
}

/**
 * Validator target files are contact lists: only the roles that run validators may download them (the
 * list links to them, so the browser sends the authToken cookie; a bearer header works too). Template
 * media stay public, since WhatsApp fetches them by URL. Anyone else gets the 404 of a missing file.
 */
function uploadsGuard(ctx: AppContext): RequestHandler {
  return (req, _res, next) => {
    if (!underValidators(req.path)) return next();
    const cookie = /(?:^|;\s*)authToken=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    const token = bearerToken(req) ?? (cookie ? decodeURIComponent(cookie) : null);
    void (token ? userFromToken(ctx, token) : Promise.resolve(null))
      .then((user) => next(user && canOpenPage(user.role, '/validator/list') ? undefined : new HttpError(404, 'Not found')))
      .catch(next);
  };
}
