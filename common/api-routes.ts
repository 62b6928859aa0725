import type { Role } from './roles';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Access = 'public' | Role[];

export interface ApiRoute {
  method: Method;
  /** Express path under /api. */
  path: string;
  access: Access;
  /** The simulated phone's calls: also open with the simulator token, or to anyone with SIM_PUBLIC. */
  simulator?: true;
}

const ALL: Role[] = ['member', 'admin', 'dev', 'staff'];
const DAM: Role[] = ['member', 'admin', 'dev'];
const DM: Role[] = ['member', 'dev'];
const DAS: Role[] = ['admin', 'staff', 'dev'];
const DA: Role[] = ['admin', 'dev'];
const A: Role[] = ['admin'];
const D: Role[] = ['dev'];

const r = (method: Method, path: string, access: Access): ApiRoute => ({ method, path, access });
const sim = (method: Method, path: string): ApiRoute => ({ method, path, access: DA, simulator: true });

/**
 * Every API call and the roles that may make it. The server mounts handlers only through this
 * table, and a test walks it with each role. Ownership (a member reaching only their own rows)
 * is enforced by the services on top of this.
 */
export const API_ROUTES: ApiRoute[] = [
  // Authentication
  r('POST', '/auth/login', 'public'),
  r('POST', '/auth/register', 'public'),
  r('POST', '/auth/validate', 'public'),
  r('POST', '/auth/logout', ALL),
  // Two-factor sign-in: the code step of a sign-in (its challenge stands for the password), and each user's own set-up.
  r('POST', '/auth/2fa/verify', 'public'),
  r('GET', '/auth/2fa', ALL),
  r('POST', '/auth/2fa/setup', ALL),
  r('POST', '/auth/2fa/enable', ALL),
  r('POST', '/auth/2fa/disable', ALL),
  r('GET', '/config', 'public'),
  r('GET', '/health', 'public'),
  r('GET', '/health/ready', 'public'),
  // Meta's WhatsApp Cloud API webhooks: no sign-in, the body's X-Hub-Signature-256 (or the verify token) instead.
  r('GET', '/webhooks/whatsapp', 'public'),
  r('POST', '/webhooks/whatsapp', 'public'),

  // Users and counts
  r('GET', '/admin/users/members', DA),
  r('GET', '/admin/users/members-per-page', DA),
  r('GET', '/admin/users/active', DA),
  r('GET', '/admin/users/referral-per-page', DAM),
  r('GET', '/admin/users/blast-fee/:id', ALL),
  r('GET', '/admin/users/:id', ALL),
  r('PUT', '/admin/users/:id', ALL),
  r('GET', '/admin/messagelog/count/:userId', DAM),
  r('GET', '/admin/messagelog/today-income/:userId', DAM),
  r('GET', '/admin/messagelog/today-count', DA),
  r('GET', '/admin/messagelog/total-count', DA),
  r('GET', '/admin/messagelog/daily', DAM),
  r('GET', '/admin/messagelog/delivery/:whatsappId', DAM),
  r('GET', '/admin/messagelog/recipients/:whatsappId', DAM),

  // Settings
  r('GET', '/admin/setting/get', ALL),
  r('PUT', '/admin/setting/update', DA),

  // WhatsApp accounts
  r('POST', '/admin/whatsapp/new-client', ALL),
  r('POST', '/admin/whatsapp/remove-client', ALL),
  r('GET', '/admin/whatsapp/qr-new-client/:deviceId', ALL),
  r('GET', '/admin/whatsapp/client-state/:deviceId', ALL),
  r('GET', '/admin/whatsapp/listen-message-created/:deviceId', ALL),
  r('POST', '/admin/whatsapp/send-message/1', DA),
  r('POST', '/admin/whatsapp/save', ALL),
  r('POST', '/admin/whatsapp/cloud-link', DAM),
  r('GET', '/admin/whatsapp/list-per-page', DAM),
  r('GET', '/admin/whatsapp/list/:userId', ALL),
  r('GET', '/admin/whatsapp/list', ALL),
  r('GET', '/admin/whatsapp/count/:userId', ALL),
  r('PUT', '/admin/whatsapp/status', DAM),
  r('PUT', '/admin/whatsapp/interval', DAM),
  r('POST', '/admin/whatsapp/start-blasting', DM),
  r('POST', '/admin/whatsapp/stop-blasting', DM),
  // A blast start set for a later time: the owner, and admin and dev for any account.
  r('POST', '/admin/whatsapp/schedule-blasting', DAM),
  r('POST', '/admin/whatsapp/cancel-schedule', DAM),
  r('POST', '/admin/whatsapp/reset', DM),
  r('POST', '/admin/whatsapp/activate', DA),
  r('GET', '/admin/whatsapp/:id', ALL),

  // Generator
  r('GET', '/admin/generator/list-per-page', DAS),
  r('POST', '/admin/generator/create', DAS),
  r('POST', '/admin/generator/start', DAS),
  r('POST', '/admin/generator/stop', DAS),
  r('GET', '/admin/generator/download-result/:id', DAS),
  r('GET', '/admin/generator/:id', DAS),
  r('PUT', '/admin/generator/:id', DAS),
  r('DELETE', '/admin/generator/:id', DAS),

  // Validator
  r('GET', '/admin/validator/list-per-page', DAS),
  r('POST', '/admin/validator/create', DAS),
  r('POST', '/admin/validator/start', DAS),
  r('POST', '/admin/validator/stop', DAS),
  r('GET', '/admin/validator/download-result/:id', DAS),
  r('GET', '/admin/validator/:id', DAS),
  r('PUT', '/admin/validator/:id', DAS),
  r('DELETE', '/admin/validator/:id', DAS),

  // Phone numbers
  r('GET', '/admin/phonenumber/list', DA),
  r('GET', '/admin/phonenumber/list-per-page', DA),
  r('GET', '/admin/phonenumber/count-blast', DA),
  r('GET', '/admin/phonenumber/export', DA),
  r('POST', '/admin/phonenumber/save', DA),
  r('POST', '/admin/phonenumber/import', DA),
  r('GET', '/admin/phonenumber/skipped/:token', DA),
  // The suppression list (opt-outs): read and added to by hand, never removed from.
  r('GET', '/admin/phonenumber/optout/list-per-page', DA),
  r('POST', '/admin/phonenumber/optout/save', DA),
  r('GET', '/admin/phonenumber/:id', DA),
  r('PUT', '/admin/phonenumber/:id', DA),
  r('DELETE', '/admin/phonenumber/:id', DA),

  // Proxies
  r('GET', '/admin/proxy/list', DA),
  r('GET', '/admin/proxy/list-per-page', DA),
  r('GET', '/admin/proxy/count-use', DA),
  r('GET', '/admin/proxy/export', DA),
  r('POST', '/admin/proxy/save', DA),
  r('POST', '/admin/proxy/import', DA),
  r('GET', '/admin/proxy/:id', DA),
  r('PUT', '/admin/proxy/:id', DA),
  r('DELETE', '/admin/proxy/:id', DA),

  // Message templates
  r('GET', '/admin/message/list', DA),
  r('GET', '/admin/message/list-per-page', DA),
  r('POST', '/admin/message/create', DA),
  r('POST', '/admin/message/import', DA),
  r('GET', '/admin/message/:id', DA),
  r('PUT', '/admin/message/:id', DA),
  r('DELETE', '/admin/message/:id', DA),

  // Bonuses
  r('GET', '/admin/bonus/list-per-page', DAM),
  r('POST', '/admin/bonus/create', DA),
  r('GET', '/admin/bonus/total/:userId', DAM),
  r('DELETE', '/admin/bonus/:id', DA),

  // Levels
  r('GET', '/admin/level/list-per-page', DA),
  r('POST', '/admin/level/create', DA),
  r('GET', '/admin/level/:id', DA),
  r('PUT', '/admin/level/:id', DA),
  r('DELETE', '/admin/level/:id', DA),

  // Withdrawals
  r('POST', '/admin/withdraw/request', DM),
  r('GET', '/admin/withdraw/history/:userId', ['member', 'admin', 'dev', 'staff']),
  r('GET', '/admin/withdraw/histories', DAS),
  r('GET', '/admin/withdraw/histories-per-page', ALL),
  r('GET', '/admin/withdraw/income/:userId', DAM),
  r('GET', '/admin/withdraw/balance/:userId', DAM),
  r('GET', '/admin/withdraw/total-requested/:userId', DAM),
  r('GET', '/admin/withdraw/total-accepted/:userId', DAM),
  r('PUT', '/admin/withdraw/update', A),

  // Simulated phone, mounted only while the simulator is the gateway: a signed-in admin or dev,
  // the SIM_TOKEN, or anyone when SIM_PUBLIC=true.
  sim('POST', '/sim/scan'),
  sim('POST', '/sim/pair'),
  sim('POST', '/sim/connection'),
  sim('POST', '/sim/reply'),
  sim('POST', '/sim/revoke'),
  sim('GET', '/sim/inbox/:number'),
  sim('GET', '/sim/numbers'),
  sim('GET', '/sim/devices'),

  // Audit log
  r('GET', '/admin/audit', DA),

  // Exports for the books (CSV, streamed). Bank details are the admin's alone, as on the withdrawal screen.
  r('GET', '/admin/export/members', DA),
  r('GET', '/admin/export/withdrawals', A),
  r('GET', '/admin/export/messagelog', DA),
  r('GET', '/admin/export/audit', DA),

  // Developer monitor
  r('GET', '/dev/monitor/local', D),
  r('GET', '/dev/monitor/remote', D),
  r('GET', '/dev/monitor/socket', D),
];

export function findApiRoute(method: Method, path: string): ApiRoute | undefined {
  return API_ROUTES.find((route) => route.method === method && route.path === path);
}
