import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import { HttpError } from './errors';
import { nulInBody } from './nul';
import { privateDir, privateFile } from './paths';

export interface UploadOptions {
  /** Directory the file is written to (created when missing). */
  dir: string;
  /** Largest file accepted, in bytes; above it the call answers 413 with `tooLargeMsg`. */
  maxBytes: number;
  tooLargeMsg: string;
  /** Lower-case extensions with the dot ('.csv'); anything else is refused with `typeMsg`. */
  extensions: string[];
  typeMsg: string;
  /** Keep the extension in the generated name (media must, temp files need not). */
  keepExtension?: boolean;
}

export function fileExtension(name: string): string {
  return path.extname(name).toLowerCase();
}

const MULTIPART = Symbol('multipart');

/** Marks a handler that reads multipart forms: the calls it serves accept them (lib/api.ts checks). */
export function acceptsMultipart<T extends RequestHandler>(handler: T): T {
  return Object.assign(handler, { [MULTIPART]: true });
}

export const readsMultipart = (handler: RequestHandler): boolean => MULTIPART in handler;

/**
 * One optional file in the field `file`, streamed to disk under a generated name (the client's
 * name is never used as a path). Errors become HttpErrors: 413 too large, 422 wrong type.
 */
export function singleFileUpload(options: UploadOptions): RequestHandler {
  // tmp/ as well as tmp/imports: both 0700 (uploads/ sits in DATA_DIR, itself 0700).
  privateDir(path.dirname(options.dir));
  privateDir(options.dir);
  if (!options.keepExtension) removeStaleUploads(options.dir);
  const storage = multer.diskStorage({
    destination: (_req, _file, cb) => cb(null, options.dir),
    filename: (_req, file, cb) => {
      const ext = options.keepExtension ? fileExtension(file.originalname) : '.upload';
      cb(null, `${Date.now()}-${crypto.randomBytes(12).toString('hex')}${ext}`);
    },
  });
  const handler = multer({
    storage,
    limits: { fileSize: options.maxBytes, files: 1, fields: 20, fieldSize: 2 * 1024 * 1024 },
    fileFilter: (_req, file, cb) => {
      if (!options.extensions.includes(fileExtension(file.originalname))) cb(new HttpError(422, options.typeMsg));
      else cb(null, true);
    },
  }).single('file');
  return acceptsMultipart((req, res, next) => {
    handler(req, res, (err: unknown) => {
      if (!err) {
        if (req.file?.path) privateFile(req.file.path);
        // Multipart fields are read only now: a NUL in one is refused like one in a JSON body.
        const nul = nulInBody(req.body);
        if (nul) removeUpload(req.file?.path);
        return next(nul ?? undefined);
      }
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return next(new HttpError(413, options.tooLargeMsg));
        return next(new HttpError(422, err.code === 'LIMIT_UNEXPECTED_FILE' ? 'Only one file, in the field "file", is accepted.' : 'Invalid upload.'));
      }
      next(err);
    });
  });
}

/** A temporary upload untouched this long belongs to no request any more. */
export const STALE_UPLOAD_MS = 60 * 60 * 1000;

/**
 * Removes the temporary uploads (`*.upload`) in `dir` older than STALE_UPLOAD_MS; runs once at start. A
 * request's file is removed when its response closes, but not when the process ends first (a SIGTERM whose
 * timeout cut an import, a crash): those files, up to 200 MB each, stayed for ever.
 */
export function removeStaleUploads(dir: string, now = Date.now()): void {
  removeOldFiles(dir, STALE_UPLOAD_MS, now, (name) => name.endsWith('.upload'));
}

/**
 * Removes every temporary upload in `dir`, whatever its age: at the start of a single SQLite node, which alone
 * uses its DATA_DIR, no request is in flight, so each one is what a cut import left.
 */
export function removeAllUploads(dir: string): void {
  removeOldFiles(dir, -1, Date.now(), (name) => name.endsWith('.upload'));
}

/** Removes the files in `dir` (those `matches` names) last written more than `maxAgeMs` ago; a missing folder is fine. */
export function removeOldFiles(dir: string, maxAgeMs: number, now = Date.now(), matches: (name: string) => boolean = () => true): void {
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!matches(name)) continue;
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > maxAgeMs) fs.rmSync(file, { force: true });
    } catch {
      // already gone
    }
  }
}

/** Removes an uploaded file, ignoring one that is already gone. */
export function removeUpload(file: string | undefined | null): void {
  if (!file) return;
  fs.rm(file, { force: true }, () => undefined);
}

/** A temporary upload (an import file): removed once the response is finished or the client leaves. */
export function tempUpload(req: Request): Express.Multer.File | undefined {
  const file = req.file;
  if (file) {
    const cleanup = () => removeUpload(file.path);
    req.res?.once('close', cleanup);
  }
  return file;
}
