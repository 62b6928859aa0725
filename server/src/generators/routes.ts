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

  api.get('/admin/generator/list-per-page', (req, res) => {
    res.json(listGenerators(ctx, currentUser(req), jobListQuery(req.query)));
  });

  api.post('/admin/generator/create', async (req, res) => {
    res.status(201).json(await createGenerator(ctx, currentUser(req), GeneratorBody.parse(req.body ?? {})));
  });

  api.post('/admin/generator/start', (req, res) => {
    res.json(startGenerator(ctx, currentUser(req), JobIdBody.parse(req.body ?? {}).id));
  });

  api.post('/admin/generator/stop', (req, res) => {
    res.json(stopGenerator(ctx, currentUser(req), JobIdBody.parse(req.body ?? {}).id));
  });

  api.get('/admin/generator/download-result/:id', (req, res) => {
    res.json(generatorResultRows(ctx, currentUser(req), idParam(req.params.id)));
  });

  api.get('/admin/generator/:id', (req, res) => {
    res.json(getGenerator(ctx, currentUser(req), idParam(req.params.id)));
  });

  api.put('/admin/generator/:id', async (req, res) => {
    res.json(await updateGenerator(ctx, currentUser(req), idParam(req.params.id), GeneratorBody.parse(req.body ?? {})));
  });

  api.delete('/admin/generator/:id', (req, res) => {
    res.json(deleteGenerator(ctx, currentUser(req), idParam(req.params.id)));
  });
}
