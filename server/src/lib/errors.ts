import type { ErrorRequestHandler } from 'express';
import { ZodError } from 'zod';
import { type ErrorCode, errorCodeFor } from '../../../common/errors';
import { getLogger, logFunction } from './logger';

/**
 * An error whose status and msg are safe to show to the caller. `code` is the spec's number where the
 * spec names one (withdraw 1, blast 2/3), or a stable key of common/errors.ts; left out, the
 * middleware finds the key from the message.
 */
export class HttpError extends Error {
  constructor(
    public status: number,
    public msg: string,
    public extra: { code?: number | ErrorCode; errors?: Record<string, string> } = {},
  ) {
    super(msg);
  }
}

export const badRequest = (msg: string, errors?: Record<string, string>) => new HttpError(422, msg, { errors });
export const forbidden = (msg = 'Forbidden') => new HttpError(403, msg);
export const notFound = (msg = 'Not found') => new HttpError(404, msg);

/** zod issues → `{ field: message }`, first message per field. */
export function zodFieldErrors(err: ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of err.issues) {
    const key = issue.path.join('.') || '_';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

/** `{ msg, code?, errors? }`: the catalogue's code is added when the message is a known one. */
export function errorBody(msg: string, extra: { code?: number | ErrorCode; errors?: Record<string, string> } = {}) {
  const code = extra.code ?? errorCodeFor(msg)?.code;
  return { msg, ...(code === undefined ? {} : { code }), ...(extra.errors ? { errors: extra.errors } : {}) };
}

/** Unexpected errors are logged (with the request's id, when the request logger gave it one) and answer 500. */
export function errorMiddleware(
  log: (msg: string, err: unknown, fields?: Record<string, unknown>) => void = (msg, err, fields) => logFunction(getLogger())(msg, err, fields),
): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (err instanceof HttpError) {
      res.status(err.status).json(errorBody(err.msg, err.extra));
      return;
    }
    if (err instanceof ZodError) {
      const errors = zodFieldErrors(err);
      const msg = Object.values(errors)[0] ?? 'Invalid request';
      // zod's own wording ('Invalid input', 'Too big: …'), where a schema gives no message, answers the generic code.
      res.status(422).json(errorBody(msg, { errors, code: errorCodeFor(msg)?.code ?? 'invalid_request' }));
      return;
    }
    const status = typeof err === 'object' && err !== null && 'status' in err ? Number(err.status) : 500;
    if (status === 413) {
      res.status(413).json(errorBody('Request too large'));
      return;
    }
    if (status === 400 && typeof err === 'object' && err !== null && 'type' in err && err.type === 'entity.parse.failed') {
      res.status(400).json(errorBody('Invalid JSON body'));
      return;
    }
    // A body in an encoding or charset the server does not read (Content-Encoding: br on a plain body…): the client's mistake.
    if (status === 415) {
      res.status(415).json(errorBody('Unsupported request encoding'));
      return;
    }
    // Other request errors the body reader marks as the client's (a gzip/deflate/br body that does not
    // decompress, an aborted upload…): their status with a generic message, not a logged 500.
    if (status >= 400 && status < 500 && typeof err === 'object' && err !== null && 'expose' in err && err.expose === true) {
      res.status(status).json(errorBody('Invalid request body'));
      return;
    }
    const reqId = (req as { id?: unknown }).id;
    log('Unhandled error', err, reqId === undefined ? {} : { reqId, method: req.method, url: req.originalUrl.split('?')[0] });
    res.status(500).json(errorBody('Internal server error'));
  };
}

/** A start that cannot go on for a reason the operator fixes (a store that does not answer): printed as its message. */
export class StartFailure extends Error {}

/** A connection URL for a message: its password replaced by ***. */
export function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/**
 * What a failed start prints. A configuration mistake is the operator's to fix: its message says what, a
 * stack trace would not help. A failed query is shown without its parameters, which may hold a
 * password hash or personal data.
 */
export function startFailure(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  if (err.message.startsWith('Invalid configuration') || err instanceof StartFailure) return err.message;
  if ('params' in err && 'query' in err) {
    const cause = err.cause instanceof Error ? err.cause.message : String(err.cause ?? '');
    // The stack's frames only: its first lines repeat the message, parameters included.
    const frames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
    return [`Failed query: ${String(err.query)}`, cause, ...frames].join('\n');
  }
  return err;
}
