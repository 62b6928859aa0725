import { withReasonCode } from '../../../common/errors';
import path from 'node:path';
import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { attachment, streamDownload } from '../lib/download';
import { HttpError } from '../lib/errors';
import { idParam } from '../lib/ids';
import { pageParam } from '../lib/paging';
import { fileExtension, singleFileUpload, tempUpload } from '../lib/upload';
import { ExportQuery } from '../phonenumbers/schema';
import {
  deleteProxy,
  exportProxies,
  importProxies,
  proxyById,
  proxyCount,
  proxyCountUse,
  proxyList,
  proxiesPerPage,
  ProxySave,
  ProxyUpdate,
  saveProxy,
  updateProxy,
} from './service';

export const NO_PROXIES = 'No Proxys to export.';
export const PROXY_IMPORT_TOO_LARGE = 'File terlalu besar: maksimal 5 MB per upload.';

export function registerProxyRoutes(api: Api, ctx: AppContext): void {
  const upload = singleFileUpload({
    dir: path.join(ctx.config.dataDir, 'tmp', 'imports'),
    maxBytes: 5 * 1024 * 1024,
    tooLargeMsg: PROXY_IMPORT_TOO_LARGE,
    extensions: ['.csv', '.json'],
    typeMsg: 'File harus berformat .csv atau .json.',
  });

  api.get('/admin/proxy/list', async (_req, res) => {
    res.json(await proxyList(ctx));
  });

  api.get('/admin/proxy/list-per-page', async (req, res) => {
    res.json(await proxiesPerPage(ctx, pageParam.parse(req.query.page)));
  });

  api.get('/admin/proxy/count-use', async (_req, res) => {
    res.json(await proxyCountUse(ctx));
  });

  api.get('/admin/proxy/export', async (req, res) => {
    const { format } = ExportQuery.parse(req.query);
    if ((await proxyCount(ctx)) === 0) throw new HttpError(404, NO_PROXIES);
    attachment(res, `proxies.${format}`, format);
    await streamDownload(ctx, res, () => exportProxies(ctx, res, format));
  });

  api.post('/admin/proxy/save', async (req, res) => {
    res.status(201).json(await saveProxy(ctx, ProxySave.parse(req.body ?? {})));
  });

  api.post('/admin/proxy/import', upload, async (req, res) => {
    const file = tempUpload(req);
    if (!file) throw new HttpError(422, 'File wajib diunggah.', { errors: { file: 'File wajib diunggah.' } });
    const result = await importProxies(ctx, file.path, fileExtension(file.originalname) === '.json' ? 'json' : 'csv');
    res.json({ ...result, skipped: result.skipped.map(withReasonCode) });
  });

  api.get('/admin/proxy/:id', async (req, res) => {
    res.json(await proxyById(ctx, idParam(req.params.id)));
  });

  api.put('/admin/proxy/:id', async (req, res) => {
    res.json(await updateProxy(ctx, idParam(req.params.id), ProxyUpdate.parse(req.body ?? {})));
  });

  api.delete('/admin/proxy/:id', async (req, res) => {
    res.json(await deleteProxy(ctx, idParam(req.params.id)));
  });
}
