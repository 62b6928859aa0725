import { withReasonCode } from '../../../common/errors';
import path from 'node:path';
import type { Request } from 'express';
import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { HttpError } from '../lib/errors';
import { idParam } from '../lib/ids';
import { pageParam } from '../lib/paging';
import { removeUpload, singleFileUpload, tempUpload } from '../lib/upload';
import { ALL_MEDIA_EXTENSIONS, MEDIA_MAX_BYTES, MEDIA_TOO_LARGE, MEDIA_TYPE, mediaUrl } from './media';
import { createTemplate, deleteTemplate, importTemplates, templateById, templateList, templatesPerPage, TemplateFields, updateTemplate } from './service';

/** Runs a save with the uploaded media; the file is removed again when the save is refused. */
async function withMedia<T>(req: Request, save: (media: string | null) => Promise<T>): Promise<T> {
  const file = req.file;
  try {
    return await save(file ? mediaUrl(file.filename) : null);
  } catch (err) {
    removeUpload(file?.path);
    throw err;
  }
}

export function registerTemplateRoutes(api: Api, ctx: AppContext): void {
  const media = singleFileUpload({
    dir: path.join(ctx.config.dataDir, 'uploads'),
    maxBytes: MEDIA_MAX_BYTES,
    tooLargeMsg: MEDIA_TOO_LARGE,
    extensions: ALL_MEDIA_EXTENSIONS,
    typeMsg: MEDIA_TYPE,
    keepExtension: true,
  });
  const jsonUpload = singleFileUpload({
    dir: path.join(ctx.config.dataDir, 'tmp', 'imports'),
    maxBytes: 5 * 1024 * 1024,
    tooLargeMsg: 'File terlalu besar: maksimal 5 MB per upload.',
    extensions: ['.json'],
    typeMsg: 'File harus berformat .json.',
  });

  api.get('/admin/message/list', async (_req, res) => {
    res.json(await templateList(ctx));
  });

  api.get('/admin/message/list-per-page', async (req, res) => {
    res.json(await templatesPerPage(ctx, pageParam.parse(req.query.page)));
  });

  api.post('/admin/message/create', media, async (req, res) => {
    res.status(201).json(await withMedia(req, (m) => createTemplate(ctx, TemplateFields.parse(req.body ?? {}), m)));
  });

  api.post('/admin/message/import', jsonUpload, async (req, res) => {
    const file = tempUpload(req);
    if (!file) throw new HttpError(422, 'File wajib diunggah.', { errors: { file: 'File wajib diunggah.' } });
    const result = await importTemplates(ctx, file.path);
    res.json({ ...result, skipped: result.skipped.map(withReasonCode) });
  });

  api.get('/admin/message/:id', async (req, res) => {
    res.json(await templateById(ctx, idParam(req.params.id)));
  });

  api.put('/admin/message/:id', media, async (req, res) => {
    const id = idParam(req.params.id);
    res.json(await withMedia(req, (m) => updateTemplate(ctx, id, TemplateFields.parse(req.body ?? {}), m)));
  });

  api.delete('/admin/message/:id', async (req, res) => {
    res.json(await deleteTemplate(ctx, idParam(req.params.id)));
  });
}
