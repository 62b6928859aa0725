import type { Api } from './lib/api';
import type { AppContext } from './context';
import { registerAuthRoutes } from './auth/routes';
import { registerUserRoutes } from './users/routes';
import { registerSettingsRoutes } from './settings/routes';
import { registerMonitorRoutes } from './monitor/routes';
import { registerBonusRoutes } from './bonuses/routes';
import { registerLevelRoutes } from './levels/routes';
import { registerReferralRoutes } from './referrals/routes';
import { registerWithdrawRoutes } from './withdrawals/routes';
import { registerWhatsappRoutes } from './whatsapp/routes';
import { registerMessageLogRoutes } from './messagelog/routes';
import { registerSimRoutes } from './sim/routes';
import { registerGeneratorRoutes } from './generators/routes';
import { registerValidatorRoutes } from './validators/routes';
import { registerBlastRoutes } from './engine/routes';
import { registerPhoneNumberRoutes } from './phonenumbers/routes';
import { registerProxyRoutes } from './proxies/routes';
import { registerTemplateRoutes } from './templates/routes';
import { registerAuditRoutes } from './audit/routes';
import { registerHealthRoutes } from './health/routes';
import { registerWebhookRoutes } from './webhooks/routes';
import { registerExportRoutes } from './exports/routes';

/** Each area mounts its calls; add an area here. */
export const areaRoutes: Array<(api: Api, ctx: AppContext) => void> = [
  registerAuthRoutes,
  registerUserRoutes,
  registerSettingsRoutes,
  registerMonitorRoutes,
  registerBonusRoutes,
  registerLevelRoutes,
  registerReferralRoutes,
  registerWithdrawRoutes,
  registerWhatsappRoutes,
  registerMessageLogRoutes,
  registerSimRoutes,
  registerGeneratorRoutes,
  registerValidatorRoutes,
  registerBlastRoutes,
  registerPhoneNumberRoutes,
  registerProxyRoutes,
  registerTemplateRoutes,
  registerAuditRoutes,
  registerHealthRoutes,
  registerWebhookRoutes,
  registerExportRoutes,
];
