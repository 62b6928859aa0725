import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { idParam } from '../lib/ids';
import { DailyQuery, dailyCounts } from './daily';
import { memberCounts, todayCount, todayIncome, totalCount } from './service';
import { deliveryCounts, recipientStatuses, RecipientsQuery } from './delivery';

export function registerMessageLogRoutes(api: Api, ctx: AppContext): void {
  api.get('/admin/messagelog/count/:userId', async (req, res) => {
    res.json(await memberCounts(ctx, currentUser(req), idParam(req.params.userId)));
  });

  api.get('/admin/messagelog/today-income/:userId', async (req, res) => {
    res.json(await todayIncome(ctx, currentUser(req), idParam(req.params.userId)));
  });

  api.get('/admin/messagelog/today-count', async (_req, res) => {
    res.json(await todayCount(ctx));
  });

  api.get('/admin/messagelog/total-count', async (_req, res) => {
    res.json(await totalCount(ctx));
  });

  api.get('/admin/messagelog/daily', async (req, res) => {
    res.json(await dailyCounts(ctx, currentUser(req), DailyQuery.parse(req.query)));
  });

  api.get('/admin/messagelog/delivery/:whatsappId', async (req, res) => {
    res.json(await deliveryCounts(ctx, currentUser(req), idParam(req.params.whatsappId)));
  });

  api.get('/admin/messagelog/recipients/:whatsappId', async (req, res) => {
    res.json(await recipientStatuses(ctx, currentUser(req), idParam(req.params.whatsappId), RecipientsQuery.parse(req.query)));
  });
}
