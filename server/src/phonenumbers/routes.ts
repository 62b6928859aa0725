import { withReasonCode } from '../../../common/errors';
import path from 'node:path';
import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { attachment, streamDownload } from '../lib/download';
import { HttpError } from '../lib/errors';
import { idParam } from '../lib/ids';
import { pageParam, textParam } from '../lib/paging';
import { fileExtension, singleFileUpload, tempUpload } from '../lib/upload';
import { ExportQuery, OptOutSave, PhoneNumberSave, PhoneNumberUpdate } from './schema';
import { addOptOut, optOutsPerPage } from './optout-list';
import { ImportAborted, importPhoneNumbers, type ImportProgress } from './import';
import { ensurePhoneSearch } from './search';
import { lineTypeParam } from './line-type';
import { sendStateParam } from './send-state';
import { skippedFilePath } from './skipped';
import {
  countBlast,
  deletePhoneNumber,
  exportPhoneNumbers,
  phoneNumberById,
  hasPhoneNumbers,
  phoneNumberList,
  phoneNumbersPerPage,
  savePhoneNumber,
  updatePhoneNumber,
} from './service';

export const IMPORT_MAX_BYTES = 200 * 1024 * 1024;
export const IMPORT_TOO_LARGE = 'File terlalu besar: maksimal 200 MB per upload.';
export const IMPORT_TYPE = 'File harus berformat .csv atau .json.';
export const IMPORT_FILE_REQUIRED = 'File wajib diunggah.';
export const NO_PHONE_NUMBERS = 'No phone numbers to export.';

export function registerPhoneNumberRoutes(api: Api, ctx: AppContext): void {
  void ensurePhoneSearch(ctx.db).catch((err) => ctx.log('Preparing the phone-number search failed', err));
  const skippedDir = path.join(ctx.config.dataDir, 'tmp', 'skipped');
  const upload = singleFileUpload({
    dir: path.join(ctx.config.dataDir, 'tmp', 'imports'),
    maxBytes: IMPORT_MAX_BYTES,
    tooLargeMsg: IMPORT_TOO_LARGE,
    extensions: ['.csv', '.json'],
    typeMsg: IMPORT_TYPE,
  });

  api.get('/admin/phonenumber/list', async (req, res) => {
    res.json(await phoneNumberList(ctx, textParam.parse(req.query.search)));
  });

  api.get('/admin/phonenumber/list-per-page', async (req, res) => {
    res.json(
      await phoneNumbersPerPage(
        ctx,
        pageParam.parse(req.query.page),
        textParam.parse(req.query.search),
        lineTypeParam.parse(req.query.line_type),
        sendStateParam.parse(req.query.status),
      ),
    );
  });

  api.get('/admin/phonenumber/count-blast', async (_req, res) => {
    res.json(await countBlast(ctx));
  });

  api.get('/admin/phonenumber/export', async (req, res) => {
    const { format } = ExportQuery.parse(req.query);
    if (!(await hasPhoneNumbers(ctx))) throw new HttpError(404, NO_PHONE_NUMBERS);
    attachment(res, `phone_numbers.${format}`, format);
    await streamDownload(ctx, res, () => exportPhoneNumbers(ctx, res, format));
  });

  api.post('/admin/phonenumber/save', async (req, res) => {
    res.status(201).json(await savePhoneNumber(ctx, PhoneNumberSave.parse(req.body ?? {})));
  });

  api.post('/admin/phonenumber/import', upload, async (req, res) => {
    const file = tempUpload(req);
    if (!file) throw new HttpError(422, IMPORT_FILE_REQUIRED, { errors: { file: IMPORT_FILE_REQUIRED } });
    const user = currentUser(req);
    const importId = textParam.parse(req.query.importId).slice(0, 64);
    let last = 0;
    const onProgress = (p: ImportProgress) => {
      const now = Date.now();
      if (!importId || (now - last < 250 && p.phase === 'reading')) return;
      last = now;
      ctx.realtime.toUser(user.id, 'phonenumber-import', { importId, ...p, totalBytes: file.size });
    };
    const kind = fileExtension(file.originalname) === '.json' ? 'json' : 'csv';
    // A client that leaves before the answer cancels the import: everything is rolled back.
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    try {
      const result = await importPhoneNumbers(ctx.db, file.path, kind, { skippedDir, onProgress, signal: gone.signal });
      res.json({ ...result, skipped: result.skipped.map(withReasonCode) });
    } catch (err) {
      // Once the client is gone its upload is removed too, which may fail the import another way.
      if (!(err instanceof ImportAborted) && !gone.signal.aborted) throw err;
      ctx.log(`Phone-number import cancelled by the client leaving (user ${user.id}); nothing was saved.`);
    }
  });

  api.get('/admin/phonenumber/skipped/:token', (req, res) => {
    const { format } = ExportQuery.parse(req.query);
    const file = skippedFilePath(skippedDir, String(req.params.token), format);
    attachment(res, `phone_numbers_skipped.${format}`, format);
    res.sendFile(file);
  });

  api.get('/admin/phonenumber/optout/list-per-page', async (req, res) => {
    res.json(await optOutsPerPage(ctx, pageParam.parse(req.query.page), textParam.parse(req.query.search)));
  });

  api.post('/admin/phonenumber/optout/save', async (req, res) => {
    res.status(201).json(await addOptOut(ctx, currentUser(req).id, OptOutSave.parse(req.body ?? {})));
  });

  api.get('/admin/phonenumber/:id', async (req, res) => {
    res.json(await phoneNumberById(ctx, idParam(req.params.id)));
  });

  api.put('/admin/phonenumber/:id', async (req, res) => {
    res.json(await updatePhoneNumber(ctx, idParam(req.params.id), PhoneNumberUpdate.parse(req.body ?? {})));
  });

  api.delete('/admin/phonenumber/:id', async (req, res) => {
    res.json(await deletePhoneNumber(ctx, idParam(req.params.id)));
  });
}
