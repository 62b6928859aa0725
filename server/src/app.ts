import express from 'express';
import helmet from 'helmet';
import path from 'node:path';
import type { AppContext } from './context';
import { createApi } from './lib/api';
import { errorMiddleware, HttpError } from './lib/errors';
import { serveClient } from './lib/static';
import { requestLogger } from './lib/logger';
import { areaRoutes } from './routes';
import { WEBHOOK_PATHS } from './webhooks/routes';

/** The Express app, without listening, so tests run it in-process. */
export function createApp(ctx: AppContext, extra: { beforeApi?: (app: express.Express) => void } = {}) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  // First, so every answer (static files and 404s too) carries X-Request-Id and gets its log line.
  app.use(requestLogger());
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
    express.static(path.join(ctx.config.dataDir, 'uploads'), { index: false, dotfiles: 'deny' }),
  );

  extra.beforeApi?.(app);

  const api = createApi(ctx);
  for (const register of areaRoutes) register(api, ctx);
  api.finish();
  app.use('/api', api.router);
  app.use('/api', (_req, _res, next) => next(new HttpError(404, 'Unknown API route')));

  serveClient(app, ctx.config.clientDist);

  app.use(errorMiddleware(ctx.log));
  return app;
}
