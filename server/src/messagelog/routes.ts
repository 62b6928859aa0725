import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { idParam } from '../lib/ids';
import { DailyQuery, dailyCounts } from './daily';
import { memberCounts, todayCount, todayIncome, totalCount } from './service';

export function registerMessageLogRoutes(api: Api, ctx: AppContext): void {
  api.get('/admin/messagelog/count/:userId', (req, res) => {
    res.json(memberCounts(ctx, currentUser(req), idParam(req.params.userId)));
  });

  api.get('/admin/messagelog/today-income/:userId', (req, res) => {
    res.json(todayIncome(ctx, currentUser(req), idParam(req.params.userId)));
  });

  api.get('/admin/messagelog/today-count', (_req, res) => {
    res.json(todayCount(ctx));
  });

  api.get('/admin/messagelog/total-count', (_req, res) => {
    res.json(totalCount(ctx));
  });

  api.get('/admin/messagelog/daily', async (req, res) => {
    res.json(await dailyCounts(ctx, currentUser(req), DailyQuery.parse(req.query)));
  });
}
