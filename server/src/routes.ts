import type { Api } from './lib/api';
import type { AppContext } from './context';
import { registerAuthRoutes } from './auth/routes';
import { registerUserRoutes } from './users/routes';
import { registerSettingsRoutes } from './settings/routes';

/** Each area mounts its calls; add an area here. */
export const areaRoutes: Array<(api: Api, ctx: AppContext) => void> = [
  registerAuthRoutes,
  registerUserRoutes,
  registerSettingsRoutes,
];
