import express, { type RequestHandler, type Router } from 'express';
import { findApiRoute, type Method } from '../../../common/api-routes';
import type { AppContext } from '../context';
import { requireAuth, requireRole } from '../auth/middleware';

export interface Api {
  router: Router;
  get(path: string, ...handlers: RequestHandler[]): void;
  post(path: string, ...handlers: RequestHandler[]): void;
  put(path: string, ...handlers: RequestHandler[]): void;
  delete(path: string, ...handlers: RequestHandler[]): void;
}

/**
 * Mounts handlers only for calls listed in common/api-routes.ts, guarded by the roles listed there,
 * so authorisation by role cannot be forgotten by a route.
 */
export function createApi(ctx: AppContext): Api {
  const router = express.Router();
  const auth = requireAuth(ctx);
  const add = (method: Method, path: string, handlers: RequestHandler[]) => {
    const entry = findApiRoute(method, path);
    if (!entry) throw new Error(`API route missing from common/api-routes.ts: ${method} ${path}`);
    const guards = entry.access === 'public' ? [] : [auth, requireRole(entry.access)];
    const lower = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[lower](path, ...guards, ...handlers);
  };
  return {
    router,
    get: (path, ...h) => add('GET', path, h),
    post: (path, ...h) => add('POST', path, h),
    put: (path, ...h) => add('PUT', path, h),
    delete: (path, ...h) => add('DELETE', path, h),
  };
}
