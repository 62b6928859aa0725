import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { health } from './service';

export function registerHealthRoutes(api: Api, ctx: AppContext): void {
  /** 200 while the node can serve, 503 when its database does not answer. */
  api.get('/health', async (_req, res) => {
    const report = await health(ctx);
    res.status(report.status === 'ok' ? 200 : 503).set('Cache-Control', 'no-store').json(report);
  });
}
