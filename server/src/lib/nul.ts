import type { RequestHandler } from 'express';
import { HttpError } from './errors';

export const NUL_MSG = 'Text may not contain NUL characters.';

/**
 * The top-level name under which a NUL character (U+0000) first appears in a request value (a key or a
 * string at any depth), or null. Walked with a stack, so a deeply nested body cannot overflow the call stack.
 */
export function nulField(value: unknown): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? '' : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, top] of Object.entries(value)) {
    if (key.includes('\u0000')) return key.replaceAll('\u0000', '');
    const stack: unknown[] = [top];
    while (stack.length) {
      const v = stack.pop();
      if (typeof v === 'string') {
        if (v.includes('\u0000')) return key;
      } else if (v !== null && typeof v === 'object') {
        for (const [k, inner] of Object.entries(v)) {
          if (k.includes('\u0000')) return key;
          stack.push(inner);
        }
      }
    }
  }
  return null;
}

/** The 422 for a body (JSON or a multipart form's fields) holding a NUL character, else null. */
export function nulInBody(body: unknown): HttpError | null {
  const field = nulField(body);
  return field === null ? null : new HttpError(422, NUL_MSG, field ? { errors: { [field]: NUL_MSG } } : {});
}

/**
 * Refuses a request whose path, query or body holds a NUL character: no field of the console means one,
 * and PostgreSQL cannot store it in text (the answer would otherwise be a server error on one database and
 * a stored NUL on the other). The field error names the body field when there is one.
 */
export const refuseNul: RequestHandler = (req, _res, next) => {
  const inBody = nulInBody(req.body);
  if (inBody) return next(inBody);
  if (nulField(req.params) !== null || nulField(req.query) !== null) return next(new HttpError(400, NUL_MSG));
  next();
};
