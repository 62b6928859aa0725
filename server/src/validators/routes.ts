import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { idParam } from '../lib/ids';
import { startJobRunner } from '../engine/jobs';
import { JobIdBody, jobListQuery } from '../engine/jobs/rules';
import { ValidatorBody } from './schema';
import {
  createValidator,
  deleteValidator,
  getValidator,
  listValidators,
  startValidator,
  stopValidator,
  updateValidator,
  validatorResultRows,
} from './service';
import { validatorFieldsOnly, validatorFileUpload } from './upload';

export function registerValidatorRoutes(api: Api, ctx: AppContext): void {
  startJobRunner(ctx);

  api.get('/admin/validator/list-per-page', (req, res) => {
    res.json(listValidators(ctx, currentUser(req), jobListQuery(req.query)));
  });

  api.post('/admin/validator/create', validatorFileUpload, async (req, res) => {
    res.status(201).json(await createValidator(ctx, currentUser(req), ValidatorBody.parse(req.body ?? {}), req.file));
  });

  api.post('/admin/validator/start', (req, res) => {
    res.json(startValidator(ctx, currentUser(req), JobIdBody.parse(req.body ?? {}).id));
  });

  api.post('/admin/validator/stop', (req, res) => {
    res.json(stopValidator(ctx, currentUser(req), JobIdBody.parse(req.body ?? {}).id));
  });

  api.get('/admin/validator/download-result/:id', (req, res) => {
    res.json(validatorResultRows(ctx, currentUser(req), idParam(req.params.id)));
  });

  api.get('/admin/validator/:id', (req, res) => {
    res.json(getValidator(ctx, currentUser(req), idParam(req.params.id)));
  });

  api.put('/admin/validator/:id', validatorFieldsOnly, (req, res) => {
    res.json(updateValidator(ctx, currentUser(req), idParam(req.params.id), ValidatorBody.parse(req.body ?? {})));
  });

  api.delete('/admin/validator/:id', (req, res) => {
    res.json(deleteValidator(ctx, currentUser(req), idParam(req.params.id)));
  });
}
