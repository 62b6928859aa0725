import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { pageParam } from '../lib/paging';
import { auditPerPage } from './service';

export function registerAuditRoutes(api: Api, ctx: AppContext): void {
  api.get('/admin/audit', async (req, res) => {
    res.json(await auditPerPage(ctx, pageParam.parse(req.query.page)));
  });
}
