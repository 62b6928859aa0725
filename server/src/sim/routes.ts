import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { simulatorOf } from '../gateway';
import { SimPhone } from '../gateway/simulator/phone';
import { defaultCountry } from '../settings/service';
import { ConnectionBody, NumbersQuery, PairBody, ReplyBody, RevokeBody, ScanBody } from './schema';

/**
 * The simulated phone's calls (/api/sim/*). Public, because tests and demos drive the simulated
 * network with them; they are mounted only while the simulator is the gateway.
 */
export function registerSimRoutes(api: Api, ctx: AppContext): void {
  // With GATEWAY=cloud-api the simulator still serves the accounts linked by QR code or number.
  const sim = simulatorOf(ctx.gateway);
  if (!sim) return;
  const phone = new SimPhone(sim);
  /** The phone reading numbers under the default country setting as it is now. */
  const localPhone = async () => {
    const country = await defaultCountry(ctx.db);
    return new SimPhone(sim, () => country);
  };

  api.post('/sim/scan', async (req, res) => {
    const body = ScanBody.parse(req.body ?? {});
    res.json({ device: (await localPhone()).scan(body.qr, body.phonenumber, body.pushname), msg: 'Perangkat ditautkan' });
  });

  api.post('/sim/pair', async (req, res) => {
    const body = PairBody.parse(req.body ?? {});
    res.json({ device: (await localPhone()).pair(body.code, body.phonenumber), msg: 'Perangkat ditautkan' });
  });

  api.post('/sim/connection', (req, res) => {
    const body = ConnectionBody.parse(req.body ?? {});
    res.json({ device: phone.connection(body.deviceId, body.state) });
  });

  api.post('/sim/reply', async (req, res) => {
    const body = ReplyBody.parse(req.body ?? {});
    res.json({ message: (await localPhone()).reply(body.from, body.deviceId, body.text, body.buttonId ?? null) });
  });

  api.post('/sim/revoke', (req, res) => {
    const body = RevokeBody.parse(req.body ?? {});
    res.json({ revoked: phone.revoke(body.deviceId) });
  });

  api.get('/sim/inbox/:number', async (req, res) => {
    res.json((await localPhone()).inbox(String(req.params.number)));
  });

  api.get('/sim/numbers', (req, res) => {
    const q = NumbersQuery.parse({ registered: req.query.registered, limit: req.query.limit });
    res.json(phone.numbers(q.registered, q.limit));
  });

  api.get('/sim/devices', (_req, res) => {
    res.json(phone.devices());
  });
}
