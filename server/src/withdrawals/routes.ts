import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { idParam } from '../lib/ids';
import { pageParam, textParam } from '../lib/paging';
import { assertUserExists, moneyReader, optionalId } from '../money/access';
import { moneySummary, type MoneySummary } from '../money/balance';
import { WithdrawRequestBody, WithdrawUpdateBody } from './schema';
import { allHistories, historiesPerPage, historyOf, requestWithdrawal, updateWithdrawal } from './service';
import { requestKey } from '../lib/request-key';

const statusFilter = textParam.transform((s) => (s === 'requested' || s === 'accepted' || s === 'rejected' ? s : null));
export function registerWithdrawRoutes(api: Api, ctx: AppContext): void {
  api.post('/admin/withdraw/request', async (req, res) => {
    res.status(201).json(await requestWithdrawal(ctx, currentUser(req), WithdrawRequestBody.parse(req.body ?? {}), requestKey(req)));
  });

  api.put('/admin/withdraw/update', async (req, res) => {
    res.json(await updateWithdrawal(ctx, currentUser(req), WithdrawUpdateBody.parse(req.body ?? {})));
  });

  api.get('/admin/withdraw/history/:userId', async (req, res) => {
    const userId = moneyReader(currentUser(req), idParam(req.params.userId));
    res.json(await historyOf(ctx, userId));
  });

  api.get('/admin/withdraw/histories', async (_req, res) => {
    res.json(await allHistories(ctx));
  });

  api.get('/admin/withdraw/histories-per-page', async (req, res) => {
    const caller = currentUser(req);
    const requested = optionalId(req.query.user_id ?? req.query.userId);
    // A member lists only their own requests, whatever user_id says.
    const userId = caller.role === 'member' ? caller.id : requested;
    res.json(await historiesPerPage(ctx, pageParam.parse(req.query.page), userId, statusFilter.parse(req.query.status)));
  });

  const figure = (path: string, pick: (s: MoneySummary) => Record<string, number>) =>
    api.get(path, async (req, res) => {
      const userId = moneyReader(currentUser(req), idParam(req.params.userId));
      await assertUserExists(ctx.db, userId);
      res.json(pick(await moneySummary(ctx.db, userId)));
    });
  figure('/admin/withdraw/income/:userId', (s) => ({ income: s.income }));
  figure('/admin/withdraw/balance/:userId', (s) => ({ balance: s.balance }));
  figure('/admin/withdraw/total-requested/:userId', (s) => ({ total: s.totalRequested }));
  figure('/admin/withdraw/total-accepted/:userId', (s) => ({ total: s.totalAccepted }));
}

