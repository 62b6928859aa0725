import { describe, expect, it } from 'vitest';
import { SimulatorGateway } from '../../server/src/gateway/simulator/simulator';
import { SimPhone } from '../../server/src/gateway/simulator/phone';
import { simContact, simNumbers } from '../../server/src/gateway/simulator/network';
import type { GatewayEvent } from '../../server/src/gateway/types';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function gateway(over: Partial<ConstructorParameters<typeof SimulatorGateway>[0]> = {}) {
  const sim = new SimulatorGateway({ seed: 'unit', latencyMs: 0, failureRate: 0, ...over });
  const events: GatewayEvent[] = [];
  sim.on((e) => events.push(e));
  return { sim, phone: new SimPhone(sim), events };
}

async function linked(over: Partial<ConstructorParameters<typeof SimulatorGateway>[0]> = {}) {
  const g = gateway(over);
  const snap = await g.sim.startSession('dev-1', { method: 'qr' });
  g.phone.scan(snap.qr!, '6281234567890', 'Pengirim');
  await sleep(5);
  return g;
}

describe('the simulated network', () => {
  it('registers about 70 % of numbers, deterministically under the seed, with Indonesian push names', () => {
    const numbers = simNumbers('seed-a', 400, { registered: true });
    expect(numbers).toHaveLength(400);
    for (const n of numbers) {
      expect(n.number).toMatch(/^628\d{10}$/);
      expect(simContact(n.number, 'seed-a')).toEqual({ registered: true, pushname: n.name });
    }
    expect(simNumbers('seed-a', 400)).toEqual(numbers);
    let registered = 0;
    for (let i = 0; i < 2000; i++) if (simContact(`62812${String(i).padStart(8, '0')}`, 'seed-a').registered) registered++;
    expect(registered / 2000).toBeGreaterThan(0.6);
    expect(registered / 2000).toBeLessThan(0.8);
    const unregistered = simNumbers('seed-a', 50, { registered: false });
    for (const n of unregistered) expect(simContact(n.number, 'seed-a').registered).toBe(false);
    expect(simContact('12', 'seed-a')).toEqual({ registered: false, pushname: null });
  });

  it('a different seed gives a different network', () => {
    const a = simNumbers('seed-a', 20).map((n) => n.number);
    const b = simNumbers('seed-b', 20).map((n) => n.number);
    expect(a).not.toEqual(b);
  });
});

describe('linking a device', () => {
  it('QR login emits a QR, rotates it, and links on scan: authenticated then connected', async () => {
    const { sim, phone, events } = gateway({ qrRotateMs: 30, qrTtlMs: 1000 });
    const snap = await sim.startSession('dev-qr', { method: 'qr' });
    expect(snap.phase).toBe('qr');
    expect(snap.qr).toMatch(/^2@/);
    await sleep(80);
    const rotated = sim.snapshot('dev-qr')!.qr!;
    expect(rotated).not.toBe(snap.qr);
    expect(() => phone.scan(snap.qr!)).toThrow(/kedaluwarsa/);
    phone.scan(rotated, '6281311112222', 'Budi');
    await sleep(5);
    const types = events.filter((e) => e.deviceId === 'dev-qr').map((e) => e.type);
    expect(types.filter((t) => t === 'qr').length).toBeGreaterThanOrEqual(2);
    expect(types.slice(-2)).toEqual(['authenticated', 'connection.update']);
    expect(sim.state('dev-qr')).toBe('connected');
    expect(sim.snapshot('dev-qr')!.identity).toEqual({ phonenumber: '6281311112222', pushname: 'Budi', server: 'c.us', serialized: '6281311112222@c.us' });
    sim.close();
  });

  it('an unscanned QR expires', async () => {
    const { sim, phone, events } = gateway({ qrRotateMs: 1000, qrTtlMs: 40 });
    const snap = await sim.startSession('dev-exp', { method: 'qr' });
    await sleep(80);
    expect(sim.snapshot('dev-exp')!.phase).toBe('expired');
    expect(events).toContainEqual({ type: 'disconnected', deviceId: 'dev-exp', reason: 'expired' });
    expect(() => phone.scan(snap.qr!)).toThrow();
    sim.close();
  });

  it('number login gives an 8-character pairing code that links only that number', async () => {
    const { sim, phone } = gateway();
    const snap = await sim.startSession('dev-code', { method: 'code', phoneNumber: '6281299990000' });
    expect(snap.code).toMatch(/^[A-Z0-9]{8}$/);
    const shown = `${snap.code!.slice(0, 4)}-${snap.code!.slice(4)}`;
    expect(() => phone.pair(shown, '6281200000000')).toThrow(/nomor lain/);
    phone.pair(shown.toLowerCase(), '081299990000');
    await sleep(5);
    expect(sim.state('dev-code')).toBe('connected');
    expect(sim.snapshot('dev-code')!.identity!.phonenumber).toBe('6281299990000');
    sim.close();
  });
});

describe('using a linked device', () => {
  it('sends to registered numbers, refuses unregistered and malformed ones, and fills the inbox', async () => {
    const { sim, phone } = await linked();
    const [target] = simNumbers('unit', 1);
    const [stranger] = simNumbers('unit', 1, { registered: false });
    const ok = await sim.send('dev-1', { to: target!.number, text: 'Halo {name}', mediaUrl: null, buttons: [{ id: 'b1', title: 'Stop', type: 'stop_button' }] });
    expect(ok.ok).toBe(true);
    expect(await sim.send('dev-1', { to: stranger!.number, text: 'x' })).toEqual({ ok: false, error: 'not_registered' });
    expect(await sim.send('dev-1', { to: '12ab', text: 'x' })).toEqual({ ok: false, error: 'invalid_number' });
    expect(await sim.send('nope', { to: target!.number, text: 'x' })).toEqual({ ok: false, error: 'unknown_device' });
    const inbox = phone.inbox(target!.number).messages;
    expect(inbox[0]).toMatchObject({ from: '6281234567890', text: 'Halo {name}', revoked: false, buttons: [{ id: 'b1', title: 'Stop', type: 'stop_button' }] });
    sim.close();
  });

  it('checks numbers through a connected device only', async () => {
    const { sim, phone } = await linked();
    const [target] = simNumbers('unit', 1);
    expect(await sim.checkNumber('dev-1', target!.number)).toEqual({ ok: true, registered: true, pushname: target!.name });
    phone.connection('dev-1', 'disconnected');
    expect(await sim.checkNumber('dev-1', target!.number)).toEqual({ ok: false, error: 'not_connected' });
    expect(await sim.send('dev-1', { to: target!.number, text: 'x' })).toEqual({ ok: false, error: 'not_connected' });
    sim.close();
  });

  it('fails the configured share of sends, the same way for the same seed', async () => {
    const run = async () => {
      const { sim } = await linked({ failureRate: 0.3 });
      const targets = simNumbers('unit', 200);
      const results: string[] = [];
      for (const t of targets) {
        const r = await sim.send('dev-1', { to: t.number, text: 'x' });
        results.push(r.ok ? 'ok' : r.error);
      }
      sim.close();
      return results;
    };
    const first = await run();
    const failed = first.filter((r) => r !== 'ok').length;
    expect(failed).toBeGreaterThan(30);
    expect(failed).toBeLessThan(90);
    expect(new Set(first.filter((r) => r !== 'ok'))).toEqual(new Set(['timeout', 'rate_limited', 'failed']));
    expect(await run()).toEqual(first);
  });

  it('waits the configured latency', async () => {
    const { sim } = await linked({ latencyMs: 40 });
    await sleep(100);
    const [target] = simNumbers('unit', 1);
    const started = Date.now();
    await sim.send('dev-1', { to: target!.number, text: 'x' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    sim.close();
  });

  it('reports replies, button presses and revokes as events', async () => {
    const { sim, phone, events } = await linked();
    const [target] = simNumbers('unit', 1);
    const sent = await sim.send('dev-1', { to: target!.number, text: 'promo' });
    phone.reply(target!.number, 'dev-1', 'STOP', null);
    phone.reply(target!.number, 'dev-1', '', 'b1');
    expect(events.filter((e) => e.type === 'message')).toMatchObject([
      { deviceId: 'dev-1', from: target!.number, text: 'STOP', buttonId: null },
      { deviceId: 'dev-1', from: target!.number, text: '', buttonId: 'b1' },
    ]);
    expect(phone.inbox('6281234567890').messages[0]).toMatchObject({ from: target!.number });
    phone.revoke('dev-1');
    expect(events.at(-1)).toMatchObject({ type: 'revoke', deviceId: 'dev-1', to: target!.number, messageId: sent.ok ? sent.messageId : '' });
    expect(phone.inbox(target!.number).messages[0]).toMatchObject({ revoked: true, text: '' });
    expect(() => phone.revoke('dev-1')).toThrow(/Belum ada pesan/);
    sim.close();
  });

  it('conflict, disconnect, reconnect in place and logout', async () => {
    const { sim, phone, events } = await linked();
    phone.connection('dev-1', 'conflict');
    expect(sim.state('dev-1')).toBe('conflict');
    expect(await sim.reconnect('dev-1')).toBe('connected');
    expect(sim.state('dev-1')).toBe('connected');
    phone.connection('dev-1', 'loggedOut');
    expect(events.at(-1)).toEqual({ type: 'disconnected', deviceId: 'dev-1', reason: 'loggedOut' });
    expect(await sim.reconnect('dev-1')).toBe('loggedOut');
    expect(() => phone.connection('dev-1', 'connected')).toThrow(/logged out/);
    sim.close();
  });

  it('restores a saved session in the state it was left in', async () => {
    const { sim } = gateway();
    sim.restoreSession('saved-1', { phonenumber: '6281377778888', pushname: 'Ani', server: 'c.us', serialized: '6281377778888@c.us' }, 'connected');
    expect(sim.state('saved-1')).toBe('connected');
    // A linked account's own number is on WhatsApp.
    expect(sim.contact('6281377778888')).toEqual({ registered: true, pushname: 'Ani' });
    sim.close();
  });

  it('keeps up with thousands of sends a second across many devices', async () => {
    const { sim } = gateway();
    for (let i = 0; i < 200; i++) {
      sim.restoreSession(`bulk-${i}`, { phonenumber: `62811000${String(i).padStart(5, '0')}`, pushname: 'x', server: 'c.us', serialized: 'x' }, 'connected');
    }
    const targets = simNumbers('unit', 500);
    const started = Date.now();
    const sends: Array<Promise<unknown>> = [];
    for (let i = 0; i < 20_000; i++) sends.push(sim.send(`bulk-${i % 200}`, { to: targets[i % targets.length]!.number, text: 'x' }));
    await Promise.all(sends);
    const perSecond = 20_000 / ((Date.now() - started) / 1000);
    expect(perSecond).toBeGreaterThan(3000);
    sim.close();
  });
});
