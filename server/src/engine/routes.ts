import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { engineFor } from './engine';
import { handleInbound } from './optout';
import { BlastBody, CancelScheduleBody, ScheduleBody, SendBody } from './schema';
import { cancelSchedule, resumeScheduler, scheduleBlast } from './schedule';
import { startBlasting, stopBlasting } from './service';
import { sendBlasterMessage } from './blaster';
import { startupReleased } from '../whatsapp/events';

/** Blast control and the Blaster; also starts the engine (crash recovery, gateway listeners). */
export function registerBlastRoutes(api: Api, ctx: AppContext): void {
  const engine = engineFor(ctx);
  engine.ready = (async () => {
    await engine.attach((event) => void handleInbound(ctx, event));
    await startupReleased(ctx);
    const recovered = await engine.recover();
    if (recovered.released || recovered.resumed || recovered.idled) {
      ctx.log(`Blast recovery: ${recovered.released} claim(s) released, ${recovered.resumed} loop(s) resumed, ${recovered.idled} shown idle`);
    }
  })().catch((err: unknown) => ctx.log('Blast recovery failed', err));
  resumeScheduler(ctx);

  api.post('/admin/whatsapp/start-blasting', async (req, res) => {
    const body = BlastBody.parse(req.body ?? {});
    res.json(await startBlasting(ctx, currentUser(req), body.whatsappClientId, body.loop ?? true));
  });

  api.post('/admin/whatsapp/stop-blasting', async (req, res) => {
    const body = BlastBody.parse(req.body ?? {});
    res.json(await stopBlasting(ctx, currentUser(req), body.whatsappClientId));
  });

  api.post('/admin/whatsapp/schedule-blasting', async (req, res) => {
    const body = ScheduleBody.parse(req.body ?? {});
    res.json(await scheduleBlast(ctx, currentUser(req), body.whatsappClientId, body.at));
  });

  api.post('/admin/whatsapp/cancel-schedule', async (req, res) => {
    const body = CancelScheduleBody.parse(req.body ?? {});
    res.json(await cancelSchedule(ctx, currentUser(req), body.whatsappClientId));
  });

  api.post('/admin/whatsapp/send-message/1', async (req, res) => {
    res.json(await sendBlasterMessage(ctx, SendBody.parse(req.body ?? {})));
  });
}
