import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { idParam } from '../lib/ids';
import { requestKey } from '../lib/request-key';
import { pageParam } from '../lib/paging';
import { assertUserExists, moneyReader, optionalId } from '../money/access';
import { totalBonusOf } from '../money/balance';
import { BonusCreateBody } from './schema';
import { bonusesPerPage, createBonus, deleteBonus } from './service';

export function registerBonusRoutes(api: Api, ctx: AppContext): void {
  api.get('/admin/bonus/list-per-page', async (req, res) => {
    const caller = currentUser(req);
    // Members see only their own bonuses, whatever user_id says.
    const userId = caller.role === 'member' ? caller.id : optionalId(req.query.user_id ?? req.query.userId);
    res.json(await bonusesPerPage(ctx, pageParam.parse(req.query.page), userId));
  });

  api.post('/admin/bonus/create', async (req, res) => {
    res.status(201).json(await createBonus(ctx, currentUser(req), BonusCreateBody.parse(req.body ?? {}), requestKey(req)));
  });

  api.get('/admin/bonus/total/:userId', async (req, res) => {
    const userId = moneyReader(currentUser(req), idParam(req.params.userId));
    await assertUserExists(ctx.db, userId);
    res.json({ totalBonus: await totalBonusOf(ctx.db, userId) });
  });

  api.delete('/admin/bonus/:id', async (req, res) => {
    res.json(await deleteBonus(ctx, currentUser(req), idParam(req.params.id)));
  });
}
