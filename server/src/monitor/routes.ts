import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { textParam } from '../lib/paging';
import { Monitor } from './service';

export function registerMonitorRoutes(api: Api, ctx: AppContext): void {
  const monitor = new Monitor(ctx);

  api.get('/dev/monitor/local', async (_req, res) => {
    res.json({ data: await monitor.local() });
  });

  api.get('/dev/monitor/remote', (req, res) => {
    const id = textParam.parse(req.query.id);
    res.json({ data: id ? monitor.remote(id) : [] });
  });

  api.get('/dev/monitor/socket', (req, res) => {
    const id = textParam.parse(req.query.id);
    res.json({ data: id ? monitor.socket(id) : [] });
  });
}
