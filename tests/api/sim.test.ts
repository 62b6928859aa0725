import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser, SIM } from '../helpers';
import { simContact } from '../../server/src/gateway/simulator/network';
import { SimulatorGateway } from '../../server/src/gateway/simulator/simulator';
import { eventually, linkByQr, newDeviceId } from './whatsapp-fixtures';

let t: TestApp;
let member: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  member = await t.user('member');
});
afterAll(() => t.close());

describe('/api/sim: the simulated phone', () => {
  it('lists registered and unregistered numbers with their names', async () => {
    const res = await t.http.get('/api/sim/numbers?registered=true&limit=5').set(SIM);
    expect(res.status).toBe(200);
    expect(res.body.numbers).toHaveLength(5);
    for (const n of res.body.numbers) {
      expect(simContact(n.number, t.ctx.config.sim.seed)).toEqual({ registered: true, pushname: n.name });
    }
    const un = await t.http.get('/api/sim/numbers?registered=false&limit=3').set(SIM);
    expect(un.body.numbers).toHaveLength(3);
    for (const n of un.body.numbers) expect(simContact(n.number, t.ctx.config.sim.seed).registered).toBe(false);
    const capped = await t.http.get('/api/sim/numbers?limit=5000').set(SIM);
    expect(capped.body.numbers).toHaveLength(1000);
  });

  it('links by QR: scan → the console sees the account connected', async () => {
    const account = await linkByQr(t, member, { phonenumber: '6281211112222', pushname: 'Toko Budi' });
    expect(account).toMatchObject({ phonenumber: '6281211112222', pushname: 'Toko Budi', user_id: member.id, serialized: '6281211112222@c.us', server: 'c.us' });
    const state = await eventually(
      () => t.http.get(`/api/admin/whatsapp/${account.id}`).set(member.auth),
      (r) => r.body.whatsapp.state === 'connected',
    );
    expect(state.body.whatsapp.state).toBe('connected');
  });

  it('links by pairing code for the number it was asked for', async () => {
    const deviceId = newDeviceId();
    await t.http.post('/api/admin/whatsapp/new-client').set(member.auth).send({ deviceId, phoneNumber: '081277778888' }).expect(200);
    const code = await t.http.get(`/api/admin/whatsapp/qr-new-client/${deviceId}`).set(member.auth);
    expect(code.body.code).toMatch(/^[A-Z0-9]{8}$/);
    expect(code.body.qr).toBeUndefined();
    const shown = `${code.body.code.slice(0, 4)}-${code.body.code.slice(4)}`;
    const wrong = await t.http.post('/api/sim/pair').set(SIM).send({ code: shown, phonenumber: '6281200000001' });
    expect(wrong.status).toBe(422);
    const unknown = await t.http.post('/api/sim/pair').set(SIM).send({ code: 'ZZZZ-ZZZZ', phonenumber: '6281277778888' });
    expect(unknown.status).toBe(404);
    const ok = await t.http.post('/api/sim/pair').set(SIM).send({ code: shown, phonenumber: '6281277778888' });
    expect(ok.status).toBe(200);
    const message = await t.http.get(`/api/admin/whatsapp/listen-message-created/${deviceId}`).set(member.auth);
    expect(message.body.message).toMatchObject({ clientid: deviceId, phonenumber: '6281277778888' });
    const saved = await t.http.post('/api/admin/whatsapp/save').set(member.auth).send(message.body.message);
    expect(saved.body.whatsapp.phonenumber).toBe('6281277778888');
  });

  it('refuses an unknown QR and bad bodies with a message', async () => {
    const res = await t.http.post('/api/sim/scan').set(SIM).send({ qr: '2@nothing' });
    expect(res.status).toBe(404);
    expect(res.body.msg).toMatch(/QR code/);
    const empty = await t.http.post('/api/sim/scan').set(SIM).send({});
    expect(empty.status).toBe(422);
    const bad = await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: 'x', state: 'sleeping' });
    expect(bad.status).toBe(422);
  });

  it('changes connection states: each one reaches the account row', async () => {
    const account = await linkByQr(t, member);
    for (const state of ['disconnected', 'conflict', 'connected', 'loggedOut'] as const) {
      const res = await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: account.deviceId, state });
      expect(res.status).toBe(200);
      const row = await eventually(
        () => t.http.get(`/api/admin/whatsapp/${account.id}`).set(member.auth),
        (r) => r.body.whatsapp.state === state,
      );
      expect(row.body.whatsapp.state).toBe(state);
    }
    const again = await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: account.deviceId, state: 'connected' });
    expect(again.status).toBe(409);
  });

  it('shows what a number received, replies to an account, and lists devices', async () => {
    const account = await linkByQr(t, member);
    const sim = t.ctx.gateway as SimulatorGateway;
    const target = (await t.http.get('/api/sim/numbers?limit=1').set(SIM)).body.numbers[0].number as string;
    const sent = await sim.send(account.deviceId, { to: target, text: 'Halo dari blast' });
    expect(sent.ok).toBe(true);
    const inbox = await t.http.get(`/api/sim/inbox/${target}`).set(SIM);
    expect(inbox.body.messages[0]).toMatchObject({ from: account.phonenumber, text: 'Halo dari blast' });
    expect(typeof inbox.body.messages[0].id).toBe('string');
    expect(Number.isNaN(Date.parse(inbox.body.messages[0].date))).toBe(false);

    const replies: Array<{ from: string; text: string }> = [];
    const off = sim.on((e) => e.type === 'message' && replies.push({ from: e.from, text: e.text }));
    const reply = await t.http.post('/api/sim/reply').set(SIM).send({ from: target, deviceId: account.deviceId, text: 'STOP' });
    expect(reply.status).toBe(200);
    off();
    expect(replies).toEqual([{ from: target, text: 'STOP' }]);
    const ownInbox = await t.http.get(`/api/sim/inbox/${account.phonenumber}`).set(SIM);
    expect(ownInbox.body.messages[0]).toMatchObject({ from: target, text: 'STOP' });

    const devices = await t.http.get('/api/sim/devices').set(SIM);
    const mine = devices.body.devices.find((d: { deviceId: string }) => d.deviceId === account.deviceId);
    expect(mine).toMatchObject({ phase: 'connected', lastSent: { to: target, text: 'Halo dari blast' } });
  });

  it('revoke: deleting the last sent message suspends the account', async () => {
    const account = await linkByQr(t, member);
    const sim = t.ctx.gateway as SimulatorGateway;
    const nothing = await t.http.post('/api/sim/revoke').set(SIM).send({ deviceId: account.deviceId });
    expect(nothing.status).toBe(409);
    const target = (await t.http.get('/api/sim/numbers?limit=2').set(SIM)).body.numbers[1].number as string;
    await sim.send(account.deviceId, { to: target, text: 'pesan' });
    const res = await t.http.post('/api/sim/revoke').set(SIM).send({ deviceId: account.deviceId });
    expect(res.status).toBe(200);
    const row = await t.http.get(`/api/admin/whatsapp/${account.id}`).set(member.auth);
    expect(row.body.whatsapp).toMatchObject({ suspended: true, suspended_count: 1, status: 'idle' });
    const inbox = await t.http.get(`/api/sim/inbox/${target}`).set(SIM);
    expect(inbox.body.messages[0]).toMatchObject({ revoked: true });
  });
});
