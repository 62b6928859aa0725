import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { health, readiness } from './service';

export function registerHealthRoutes(api: Api, ctx: AppContext): void {
  /** 200 while the node can serve, 503 when its database does not answer. */
  api.get('/health', async (_req, res) => {
    const report = await health(ctx);
    res.status(report.status === 'ok' ? 200 : 503).set('Cache-Control', 'no-store').json(report);
  });

  /** For load balancers: 503 while the database or a configured Redis is away, 200 otherwise. */
  api.get('/health/ready', async (_req, res) => {
    const report = await readiness(ctx);
    res.status(report.ready ? 200 : 503).set('Cache-Control', 'no-store').json(report);
  });
}
