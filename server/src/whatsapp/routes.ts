import type { Response } from 'express';
import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { idParam } from '../lib/ids';
import { pageParam, textParam } from '../lib/paging';
import { userScope } from './access';
import { startWhatsappEvents } from './events';
import { clientState, listenMessageCreated, newClient, QR_WAIT_MS, qrForClient, removeClient, saveAccount } from './linking';
import { atLinkHolder, serveLinks } from './shared-links';
import { CloudLinkBody, linkCloudAccount } from './cloud-link';
import { DeviceId, IdBody, IntervalBody, NewClientBody, RemoveClientBody, SaveBody, StatusBody } from './schema';
import {
  activateAccount,
  connectionCounts,
  getAccount,
  listAccounts,
  listPerPage,
  resetAccount,
  updateInterval,
  updateStatus,
} from './service';

const truthy = (v: unknown) => ['1', 'true', 'yes'].includes(String(Array.isArray(v) ? v[0] : (v ?? '')).toLowerCase());

/** Aborts when the caller hangs up, so long polls stop waiting for nobody. */
function hangUp(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** How long a forwarded call may take: the long polls wait up to QR_WAIT_MS on the holder. */
const FORWARD_MS = 10_000;
const FORWARD_POLL_MS = QR_WAIT_MS + 10_000;

export function registerWhatsappRoutes(api: Api, ctx: AppContext): void {
  void startWhatsappEvents(ctx);
  // With several nodes: calls about a link held here, forwarded by another node.
  serveLinks(ctx, {
    'link.remove': (caller, deviceId) => removeClient(ctx, caller, deviceId),
    'link.qr': (caller, deviceId) => qrForClient(ctx, caller, deviceId),
    'link.state': (caller, deviceId) => clientState(ctx, caller, deviceId),
    'link.listen': (caller, deviceId) => listenMessageCreated(ctx, caller, deviceId),
    'link.save': (caller, _deviceId, args) => saveAccount(ctx, caller, SaveBody.parse(args.body)),
  });

  api.post('/admin/whatsapp/new-client', async (req, res) => {
    res.json(await newClient(ctx, currentUser(req), NewClientBody.parse(req.body ?? {})));
  });

  api.post('/admin/whatsapp/remove-client', async (req, res) => {
    const caller = currentUser(req);
    const { deviceId } = RemoveClientBody.parse(req.body ?? {});
    res.json(await atLinkHolder(ctx, caller, deviceId, 'link.remove', {}, FORWARD_MS, () => removeClient(ctx, caller, deviceId)));
  });

  api.get('/admin/whatsapp/qr-new-client/:deviceId', async (req, res) => {
    const caller = currentUser(req);
    const deviceId = DeviceId.parse(req.params.deviceId);
    res.json(await atLinkHolder(ctx, caller, deviceId, 'link.qr', {}, FORWARD_POLL_MS, () => qrForClient(ctx, caller, deviceId, hangUp(res))));
  });

  api.get('/admin/whatsapp/client-state/:deviceId', async (req, res) => {
    const caller = currentUser(req);
    const deviceId = DeviceId.parse(req.params.deviceId);
    res.json(await atLinkHolder(ctx, caller, deviceId, 'link.state', {}, FORWARD_MS, () => clientState(ctx, caller, deviceId)));
  });

  api.get('/admin/whatsapp/listen-message-created/:deviceId', async (req, res) => {
    const caller = currentUser(req);
    const deviceId = DeviceId.parse(req.params.deviceId);
    res.json(await atLinkHolder(ctx, caller, deviceId, 'link.listen', {}, FORWARD_POLL_MS, () => listenMessageCreated(ctx, caller, deviceId, hangUp(res))));
  });

  api.post('/admin/whatsapp/save', async (req, res) => {
    const caller = currentUser(req);
    const body = SaveBody.parse(req.body ?? {});
    res.json(await atLinkHolder(ctx, caller, body.clientid, 'link.save', { body }, FORWARD_MS, () => saveAccount(ctx, caller, body)));
  });

  api.post('/admin/whatsapp/cloud-link', async (req, res) => {
    res.json(await linkCloudAccount(ctx, currentUser(req), CloudLinkBody.parse(req.body ?? {})));
  });

  api.get('/admin/whatsapp/list-per-page', async (req, res) => {
    res.json(
      await listPerPage(ctx, currentUser(req), {
        page: pageParam.parse(req.query.page),
        userId: userScope(req.query.user_id),
        synced: truthy(req.query.synced),
        search: textParam.parse(req.query.search ?? req.query.s),
      }),
    );
  });

  api.get('/admin/whatsapp/list/:userId', async (req, res) => {
    res.json(await listAccounts(ctx, currentUser(req), userScope(req.params.userId), truthy(req.query.synced)));
  });

  api.get('/admin/whatsapp/list', async (req, res) => {
    res.json(await listAccounts(ctx, currentUser(req), null, truthy(req.query.synced)));
  });

  api.get('/admin/whatsapp/count/:userId', async (req, res) => {
    res.json(await connectionCounts(ctx, currentUser(req), userScope(req.params.userId)));
  });

  api.put('/admin/whatsapp/status', async (req, res) => {
    const body = StatusBody.parse(req.body ?? {});
    res.json(await updateStatus(ctx, currentUser(req), body.id, body.status));
  });

  api.put('/admin/whatsapp/interval', async (req, res) => {
    const body = IntervalBody.parse(req.body ?? {});
    res.json(await updateInterval(ctx, currentUser(req), body.id, body.interval));
  });

  api.post('/admin/whatsapp/reset', async (req, res) => {
    res.json(await resetAccount(ctx, currentUser(req), IdBody.parse(req.body ?? {}).id));
  });

  api.post('/admin/whatsapp/activate', async (req, res) => {
    res.json(await activateAccount(ctx, currentUser(req), IdBody.parse(req.body ?? {}).id));
  });

  api.get('/admin/whatsapp/:id', async (req, res) => {
    res.json(await getAccount(ctx, currentUser(req), idParam(req.params.id)));
  });
}
