import crypto from 'node:crypto';
import express, { type RequestHandler, type Router } from 'express';
import { API_ROUTES, findApiRoute, type Method } from '../../../common/api-routes';
import type { AppContext } from '../context';
import { requireAuth, requireRole } from '../auth/middleware';
import { errorBody, HttpError } from './errors';
import { refuseNul } from './nul';
import { readsMultipart } from './upload';

export interface Api {
  router: Router;
  get(path: string, ...handlers: RequestHandler[]): void;
  post(path: string, ...handlers: RequestHandler[]): void;
  put(path: string, ...handlers: RequestHandler[]): void;
  delete(path: string, ...handlers: RequestHandler[]): void;
  /**
   * Mounts every call in the order of common/api-routes.ts (static paths before `:id` ones), each
   * behind the roles listed there. A listed call no area handles answers 501.
   */
  finish(): void;
}

/** The simulator token, compared in constant time. */
function simTokenMatches(expected: string | null, given: string | undefined): boolean {
  if (!expected || !given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** SIM_PUBLIC or the X-Sim-Token header opens a simulator call; otherwise the usual sign-in and roles. */
function simulatorGuard(ctx: AppContext, signedIn: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    if (ctx.config.simAccess.public || simTokenMatches(ctx.config.simAccess.token, req.get('x-sim-token'))) return next();
    const [first, second] = signedIn as [RequestHandler, RequestHandler];
    void Promise.resolve(first(req, res, (err?: unknown) => (err ? next(err) : second(req, res, next)))).catch(next);
  };
}

/**
 * Handlers are accepted only for calls listed in common/api-routes.ts, so authorisation by role
 * cannot be forgotten by a route.
 */
export function createApi(ctx: AppContext): Api {
  const router = express.Router();
  const auth = requireAuth(ctx);
  const handlers = new Map<string, RequestHandler[]>();
  const add = (method: Method, path: string, h: RequestHandler[]) => {
    if (!findApiRoute(method, path)) throw new Error(`API route missing from common/api-routes.ts: ${method} ${path}`);
    const key = `${method} ${path}`;
    if (handlers.has(key)) throw new Error(`API route mounted twice: ${key}`);
    handlers.set(key, h);
  };
  const notYet: RequestHandler = (_req, res) => {
    res.status(501).json(errorBody('Not available yet'));
  };
  return {
    router,
    get: (path, ...h) => add('GET', path, h),
    post: (path, ...h) => add('POST', path, h),
    put: (path, ...h) => add('PUT', path, h),
    delete: (path, ...h) => add('DELETE', path, h),
    finish: () => {
      for (const route of API_ROUTES) {
        const guards =
          route.access === 'public' ? [] : route.simulator ? [simulatorGuard(ctx, [auth, requireRole(route.access)])] : [auth, requireRole(route.access)];
        const h = handlers.get(`${route.method} ${route.path}`) ?? [notYet];
        const lower = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
        router[lower](route.path, routeTemplate(`/api${route.path}`), bodyType(h.some(readsMultipart)), refuseNul, ...guards, ...h);
      }
    },
  };
}

/** Names the call's template for the request metrics (a bounded label, never the path itself). */
function routeTemplate(template: string): RequestHandler {
  return (_req, res, next) => {
    res.locals.routeTemplate = template;
    next();
  };
}

/**
 * A request body must be JSON, or a multipart form on the calls that read one: a body of another type
 * would be read as no body at all, and a call whose fields are all optional would answer success
 * without changing anything.
 */
function bodyType(multipart: boolean): RequestHandler {
  return (req, _res, next) => {
    const length = req.headers['content-length'];
    const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!hasBody || req.method === 'GET' || req.is('application/json') || (multipart && req.is('multipart/form-data'))) return next();
    next(new HttpError(415, 'Unsupported content type'));
  };
}
