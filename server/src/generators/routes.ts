import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { idParam } from '../lib/ids';
import { startJobRunner } from '../engine/jobs';
import { JobIdBody, jobListQuery } from '../engine/jobs/rules';
import { GeneratorBody } from './schema';
import {
  createGenerator,
  deleteGenerator,
  generatorResultRows,
  getGenerator,
  listGenerators,
  startGenerator,
  stopGenerator,
  updateGenerator,
} from './service';

export function registerGeneratorRoutes(api: Api, ctx: AppContext): void {
  startJobRunner(ctx);

  api.get('/admin/generator/list-per-page', async (req, res) => {
    res.json(await listGenerators(ctx, currentUser(req), jobListQuery(req.query)));
  });

  api.post('/admin/generator/create', async (req, res) => {
    res.status(201).json(await createGenerator(ctx, currentUser(req), GeneratorBody.parse(req.body ?? {})));
  });

  api.post('/admin/generator/start', async (req, res) => {
    res.json(await startGenerator(ctx, currentUser(req), JobIdBody.parse(req.body ?? {}).id));
  });

  api.post('/admin/generator/stop', async (req, res) => {
    res.json(await stopGenerator(ctx, currentUser(req), JobIdBody.parse(req.body ?? {}).id));
  });

  api.get('/admin/generator/download-result/:id', async (req, res) => {
    res.json(await generatorResultRows(ctx, currentUser(req), idParam(req.params.id)));
  });

  api.get('/admin/generator/:id', async (req, res) => {
    res.json(await getGenerator(ctx, currentUser(req), idParam(req.params.id)));
  });

  api.put('/admin/generator/:id', async (req, res) => {
    res.json(await updateGenerator(ctx, currentUser(req), idParam(req.params.id), GeneratorBody.parse(req.body ?? {})));
  });

  api.delete('/admin/generator/:id', async (req, res) => {
    res.json(await deleteGenerator(ctx, currentUser(req), idParam(req.params.id)));
  });
}
