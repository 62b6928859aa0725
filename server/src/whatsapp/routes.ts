import type { Response } from 'express';
import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { idParam } from '../lib/ids';
import { pageParam, textParam } from '../lib/paging';
import { userScope } from './access';
import { startWhatsappEvents } from './events';
import { clientState, listenMessageCreated, newClient, qrForClient, removeClient, saveAccount } from './linking';
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

export function registerWhatsappRoutes(api: Api, ctx: AppContext): void {
  void startWhatsappEvents(ctx);

  api.post('/admin/whatsapp/new-client', async (req, res) => {
    res.json(await newClient(ctx, currentUser(req), NewClientBody.parse(req.body ?? {})));
  });

  api.post('/admin/whatsapp/remove-client', (req, res) => {
    res.json(removeClient(ctx, currentUser(req), RemoveClientBody.parse(req.body ?? {}).deviceId));
  });

  api.get('/admin/whatsapp/qr-new-client/:deviceId', async (req, res) => {
    res.json(await qrForClient(ctx, currentUser(req), DeviceId.parse(req.params.deviceId), hangUp(res)));
  });

  api.get('/admin/whatsapp/client-state/:deviceId', async (req, res) => {
    res.json(await clientState(ctx, currentUser(req), DeviceId.parse(req.params.deviceId)));
  });

  api.get('/admin/whatsapp/listen-message-created/:deviceId', async (req, res) => {
    res.json(await listenMessageCreated(ctx, currentUser(req), DeviceId.parse(req.params.deviceId), hangUp(res)));
  });

  api.post('/admin/whatsapp/save', async (req, res) => {
    res.json(await saveAccount(ctx, currentUser(req), SaveBody.parse(req.body ?? {})));
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
