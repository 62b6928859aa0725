import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { SimulatorGateway } from '../gateway/simulator/simulator';
import { SimPhone } from '../gateway/simulator/phone';
import { defaultCountryOf } from '../settings/service';
import { ConnectionBody, NumbersQuery, PairBody, ReplyBody, RevokeBody, ScanBody } from './schema';

/**
 * The simulated phone's calls (/api/sim/*). Public, because tests and demos drive the simulated
 * network with them; they are mounted only while the simulator is the gateway.
 */
export function registerSimRoutes(api: Api, ctx: AppContext): void {
  if (!(ctx.gateway instanceof SimulatorGateway)) return;
  const phone = new SimPhone(ctx.gateway, () => defaultCountryOf(ctx.db.$client));

  api.post('/sim/scan', (req, res) => {
    const body = ScanBody.parse(req.body ?? {});
    res.json({ device: phone.scan(body.qr, body.phonenumber, body.pushname), msg: 'Perangkat ditautkan' });
  });

  api.post('/sim/pair', (req, res) => {
    const body = PairBody.parse(req.body ?? {});
    res.json({ device: phone.pair(body.code, body.phonenumber), msg: 'Perangkat ditautkan' });
  });

  api.post('/sim/connection', (req, res) => {
    const body = ConnectionBody.parse(req.body ?? {});
    res.json({ device: phone.connection(body.deviceId, body.state) });
  });

  api.post('/sim/reply', (req, res) => {
    const body = ReplyBody.parse(req.body ?? {});
    res.json({ message: phone.reply(body.from, body.deviceId, body.text, body.buttonId ?? null) });
  });

  api.post('/sim/revoke', (req, res) => {
    const body = RevokeBody.parse(req.body ?? {});
    res.json({ revoked: phone.revoke(body.deviceId) });
  });

  api.get('/sim/inbox/:number', (req, res) => {
    res.json(phone.inbox(String(req.params.number)));
  });

  api.get('/sim/numbers', (req, res) => {
    const q = NumbersQuery.parse({ registered: req.query.registered, limit: req.query.limit });
    res.json(phone.numbers(q.registered, q.limit));
  });

  api.get('/sim/devices', (_req, res) => {
    res.json(phone.devices());
  });
}
