import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { pageParam } from '../lib/paging';
import { moneyReader, optionalId } from '../money/access';
import { referralsPerPage } from './service';

export function registerReferralRoutes(api: Api, ctx: AppContext): void {
  api.get('/admin/users/referral-per-page', async (req, res) => {
    const caller = currentUser(req);
    const userId = moneyReader(caller, optionalId(req.query.userId ?? req.query.user_id) ?? caller.id);
    res.json(await referralsPerPage(ctx, userId, pageParam.parse(req.query.page)));
  });
}
