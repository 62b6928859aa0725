import type { AccessControlProvider } from '@refinedev/core';
import { canOpenPage } from '../../../common/roles';
import { getSessionUser } from '../lib/session';

/** Resources are named by their route; the one role table of common/ decides. */
export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource, params }) => {
    const path = (params?.path as string | undefined) ?? (resource ? `/${resource}` : '/');
    return { can: canOpenPage(getSessionUser()?.role, path) };
  },
};
