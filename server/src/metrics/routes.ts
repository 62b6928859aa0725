import crypto from 'node:crypto';
import type { Express, RequestHandler } from 'express';
import { Gauge } from 'prom-client';
import type { AppContext } from '../context';
import { connectionUsage } from '../db/stores';
import { engineFor } from '../engine/engine';
import { HttpError } from '../lib/errors';
import { observeRequest, registry } from './registry';

/** The context whose engine and database the gauges read: the server's one (in tests, the last app made). */
let source: AppContext | null = null;

const contextGauge = (name: string, help: string, read: (ctx: AppContext) => number) =>
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(source ? read(source) : 0);
    },
  });

contextGauge('blast_accounts_sending', 'WhatsApp accounts whose blast loop runs on this node', (ctx) => engineFor(ctx).running);
contextGauge('blast_db_connections_in_use', 'Database connections checked out (PostgreSQL pool; SQLite: its one connection held by a transaction)', (ctx) => connectionUsage(ctx.db).inUse);
contextGauge('blast_db_connections_waiting', 'Queries waiting for a database connection', (ctx) => connectionUsage(ctx.db).waiting);

/**
 * Times every request and counts it when its answer ends, under the API route's template (set by
 * lib/api.ts), `/uploads`, `/metrics`, `/api (unknown)` or `static`: a bounded set of labels.
 */
export function requestMetrics(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const template = res.locals.routeTemplate as string | undefined;
      const path = req.originalUrl.split('?')[0]!.toLowerCase();
      const route =
        template ?? (path.startsWith('/api/') || path === '/api' ? '/api (unknown)' : path.startsWith('/uploads/') ? '/uploads' : path === '/metrics' ? '/metrics' : 'static');
      observeRequest(route, req.method, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

function tokenMatches(expected: string, header: string | undefined): boolean {
  const given = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim();
  if (!given) return false;
  // Hashes of equal length, so the comparison takes the same time whatever was sent.
  const a = crypto.createHash('sha256').update(expected).digest();
  const b = crypto.createHash('sha256').update(given).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * GET /metrics in Prometheus' text format, only with METRICS_TOKEN as a bearer token. Without the
 * variable the path does not exist (404); a missing or wrong token is a 401, as uptime-kuma's API keys.
 */
export function mountMetrics(app: Express, ctx: AppContext): void {
  source = ctx;
  app.get('/metrics', async (req, res, next) => {
    const token = ctx.config.metricsToken;
    if (!token) return next(new HttpError(404, 'Not found'));
    if (!tokenMatches(token, req.get('authorization'))) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      return next(new HttpError(401, 'Authorization token is missing or invalid'));
    }
    res.setHeader('Content-Type', registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(await registry.metrics());
  });
}
