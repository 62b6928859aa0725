import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { idParam } from '../lib/ids';
import { currentUser } from '../auth/middleware';
import { pageParam } from '../lib/paging';
import { LevelBody } from './schema';
import { createLevel, deleteLevel, getLevel, levelsPerPage, updateLevel } from './service';

export function registerLevelRoutes(api: Api, ctx: AppContext): void {
  api.get('/admin/level/list-per-page', async (req, res) => {
    res.json(await levelsPerPage(ctx, pageParam.parse(req.query.page)));
  });

  api.get('/admin/level/:id', async (req, res) => {
    res.json(await getLevel(ctx, idParam(req.params.id)));
  });

  api.post('/admin/level/create', async (req, res) => {
    res.status(201).json(await createLevel(ctx, currentUser(req).id, LevelBody.parse(req.body ?? {})));
  });

  api.put('/admin/level/:id', async (req, res) => {
    res.json(await updateLevel(ctx, currentUser(req).id, idParam(req.params.id), LevelBody.parse(req.body ?? {})));
  });

  api.delete('/admin/level/:id', async (req, res) => {
    res.json(await deleteLevel(ctx, currentUser(req).id, idParam(req.params.id)));
  });
}
