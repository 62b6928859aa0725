import type { AccessControlProvider } from '@refinedev/core';
import { canOpenPage } from '../../../common/roles';
import { getSessionUser } from '../lib/session';

/** The route of a resource's action, without the spec's `?id=` part ('/proxy/edit?id=:id' → '/proxy/edit'). */
function routeOf(route: unknown): string | undefined {
  return typeof route === 'string' ? route.replace(/\?.*$/, '') : undefined;
}

/**
 * The one role table of common/ decides, by the page the action opens: a resource's list, create or
 * edit route (or `params.path` when a screen names it).
 */
export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource, action, params }) => {
    const item = params?.resource as { list?: unknown; create?: unknown; edit?: unknown } | undefined;
    const byAction = action === 'create' ? item?.create : action === 'edit' ? item?.edit : item?.list;
    const path = (params?.path as string | undefined) ?? routeOf(byAction) ?? (resource ? `/${resource}` : '/');
    return { can: canOpenPage(getSessionUser()?.role, path) };
  },
};
