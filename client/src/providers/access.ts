import { useCan, type AccessControlProvider, type CanParams, type CanReturnType } from '@refinedev/core';
import { canOpenPage, type Role } from '../../../common/roles';
import { getSessionUser } from '../lib/session';

/** The route of a resource's action, without the spec's `?id=` part ('/proxy/edit?id=:id' → '/proxy/edit'). */
function routeOf(route: unknown): string | undefined {
  return typeof route === 'string' ? route.replace(/\?.*$/, '') : undefined;
}

/**
 * What the spec rules by role rather than by page, asked as `useCan({ resource, action })`: the roles
 * each answer allows (the server checks the same rules on every call; these only shape the screens).
 */
const ROLE_RULES: Record<string, readonly Role[]> = {
  // `/` and `/dashboard`: members get theirs, admin and dev theirs; staff land on the withdraw requests.
  'dashboard:member': ['member'],
  'dashboard:admin': ['admin', 'dev'],
  // The job screens' WhatsApp selector offers every account to dev, the caller's own to everyone else.
  'whatsapp:listAll': ['dev'],
  // The generator and validator lists show every job to dev, the caller's own to admin and staff.
  'jobs:listAll': ['dev'],
  // 'Daftar Whatsapp' (and /member's header): 'Tambah' for members only; the Action column for member
  // or dev, else the read-only Sending column (with the schedule for admin); owner and Activated for admin or dev.
  'whatsapp:add': ['member'],
  'whatsapp:actions': ['member', 'dev'],
  'whatsapp:owner': ['admin', 'dev'],
  'whatsapp:schedule': ['admin'],
  // A member's linked account leads back to their account list; other roles go to the dashboard.
  'whatsapp:returnToList': ['member'],
  // The withdrawals report of 'Ekspor' (bank details) is admin's.
  'books:withdrawals': ['admin'],
  // Only admin decides a withdraw request (approve / reject); dev and staff read the list.
  'withdraw:decide': ['admin'],
  // The server's admin channel of live events (every account's and request's changes): admin and dev.
  'live:admin': ['admin', 'dev'],
};

/**
 * The one role table of common/ decides, by the page the action opens: a resource's list, create or
 * edit route (or `params.path` when a screen names it). The answer comes from the signed-in user kept in
 * the session, so it is known at once; `can` hands it to Refine, `useCanAtOnce` to a first render.
 */
export function accessAnswer({ resource, action, params }: CanParams): CanReturnType {
  const rule = ROLE_RULES[`${resource ?? ''}:${action}`];
  if (rule) {
    const role = getSessionUser()?.role;
    return { can: role !== undefined && rule.includes(role) };
  }
  const item = params?.resource as { list?: unknown; create?: unknown; edit?: unknown } | undefined;
  const byAction = action === 'create' ? item?.create : action === 'edit' ? item?.edit : item?.list;
  const path = (params?.path as string | undefined) ?? routeOf(byAction) ?? (resource ? `/${resource}` : '/');
  return { can: canOpenPage(getSessionUser()?.role, path) };
}

export const accessControlProvider: AccessControlProvider = {
  can: async (params) => accessAnswer(params),
};

/**
 * `useCan` whose first render already holds the answer: Refine asks the provider asynchronously, so a
 * screen shaped by the answer (the WhatsApp list's columns) would first draw the "no" shape and then
 * switch. The provider's own answer is the query's initial data; Refine's query still runs and keeps it.
 */
export function useCanAtOnce(params: CanParams): boolean {
  return useCan({ ...params, queryOptions: { initialData: () => accessAnswer(params) } }).data?.can === true;
}
