import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { idParam } from '../lib/ids';
import { pageParam, textParam } from '../lib/paging';
import { activeMembers, blastFee, listMembers, memberStatusParam, membersPerPage, userDetail } from './service';
import { updateUser, UserUpdate } from './update';

export function registerUserRoutes(api: Api, ctx: AppContext): void {
  api.get('/admin/users/members', async (_req, res) => {
    res.json(await listMembers(ctx));
  });

  api.get('/admin/users/members-per-page', async (req, res) => {
    res.json(
      await membersPerPage(ctx, pageParam.parse(req.query.page), textParam.parse(req.query.search ?? req.query.s), memberStatusParam(req.query.status)),
    );
  });

  api.get('/admin/users/active', async (_req, res) => {
    res.json(await activeMembers(ctx));
  });

  api.get('/admin/users/blast-fee/:id', async (req, res) => {
    res.json(await blastFee(ctx, currentUser(req), idParam(req.params.id)));
  });

  api.get('/admin/users/:id', async (req, res) => {
    res.json(await userDetail(ctx, currentUser(req), idParam(req.params.id)));
  });

  api.put('/admin/users/:id', async (req, res) => {
    res.json(await updateUser(ctx, currentUser(req), idParam(req.params.id), UserUpdate.parse(req.body ?? {})));
  });
}
