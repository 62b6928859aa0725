import type { RequestHandler } from 'express';
import multer from 'multer';
import { HttpError } from '../lib/errors';
import { nulInBody } from '../lib/nul';
import { acceptsMultipart } from '../lib/upload';
import { MAX_VALIDATOR_FILE_BYTES } from '../../../common/jobs';

const limits = { fileSize: MAX_VALIDATOR_FILE_BYTES, files: 1, fields: 20, fieldSize: 10_000, parts: 30 };

const TOO_LARGE = `Ukuran file paling besar ${MAX_VALIDATOR_FILE_BYTES / (1024 * 1024)} MB`;

/** Multer's errors as answers the caller can read (413 for a file too large, else 422). */
function wrap(handler: RequestHandler, unexpectedFile: string): RequestHandler {
  return acceptsMultipart((req, res, next) => {
    handler(req, res, (err?: unknown) => {
      // Multipart fields are read only now: a NUL in one is refused like one in a JSON body.
      if (!err) return next(nulInBody(req.body) ?? undefined);
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return next(new HttpError(413, TOO_LARGE, { errors: { file: TOO_LARGE } }));
        if (err.code === 'LIMIT_UNEXPECTED_FILE') return next(new HttpError(422, unexpectedFile, { errors: { file: unexpectedFile } }));
        return next(new HttpError(422, 'Form tidak valid'));
      }
      next(err);
    });
  });
}

/** Create: one file in the field `file`, held in memory (it is at most 10 MB). */
export const validatorFileUpload = wrap(multer({ storage: multer.memoryStorage(), limits }).single('file'), 'Kirim file pada field "file"');

/** Update: text fields only; the file belongs to the validator from its creation. */
export const validatorFieldsOnly = wrap(multer({ limits }).none(), 'File hanya dapat diunggah saat membuat validator');
