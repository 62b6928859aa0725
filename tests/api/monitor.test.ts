import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { linkByQr } from './whatsapp-fixtures';

let t: TestApp;
let dev: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  dev = await t.user('dev');
});
afterAll(() => t.close());

describe('developer monitor calls', () => {
  it('local answers an array of entries, the process first with its uptime and memory', async () => {
    const res = await t.http.get('/api/dev/monitor/local').set(dev.auth);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
    const [proc] = res.body.data;
    expect(proc).toMatchObject({ type: 'process', pid: process.pid, gateway: 'simulator' });
    expect(proc.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(proc.memory.rss).toBeGreaterThan(0);
  });

  it('socket answers the last events of a device, newest first, at most 500', async () => {
    for (let i = 0; i < 520; i++) t.ctx.realtime.toUserAndAdmin(dev.id, 'waiting', { deviceId: 'id-mon-1', waitTime: i });
    const res = await t.http.get('/api/dev/monitor/socket?id=id-mon-1').set(dev.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(500);
    expect(res.body.data[0]).toMatchObject({ event: 'waiting', data: { deviceId: 'id-mon-1', waitTime: 519 } });
    expect(typeof res.body.data[0].date).toBe('string');
    const none = await t.http.get('/api/dev/monitor/socket?id=nothing').set(dev.auth);
    expect(none.body).toEqual({ data: [] });
  });

  it('remote answers the gateway view of a device, or an empty list for an unknown one', async () => {
    const res = await t.http.get('/api/dev/monitor/remote?id=id-unknown').set(dev.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });

  it('admin, staff and member get 403 from every monitor call', async () => {
    for (const role of ['admin', 'staff', 'member'] as const) {
      const u = await t.user(role);
      for (const path of ['local', 'remote?id=x', 'socket?id=x']) {
        expect((await t.http.get(`/api/dev/monitor/${path}`).set(u.auth)).status, `${role} ${path}`).toBe(403);
      }
    }
  });
});

describe('developer monitor with a linked device', () => {
  it('remote answers one entry with the simulator session record and traffic counters; local lists the device being linked', async () => {
    const snap = await t.ctx.gateway.startSession('id-mon-remote', { method: 'qr' });
    expect(snap.deviceId).toBe('id-mon-remote');
    const local = await t.http.get('/api/dev/monitor/local').set(dev.auth);
    const linking = local.body.data.filter((e: { type: string }) => e.type === 'linking');
    expect(linking.map((s: { deviceId: string }) => s.deviceId)).toContain('id-mon-remote');
    const res = await t.http.get('/api/dev/monitor/remote?id=id-mon-remote').set(dev.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [entry] = res.body.data;
    expect(entry).toMatchObject({ type: 'device', deviceId: 'id-mon-remote' });
    expect(entry.session.deviceId).toBe('id-mon-remote');
    expect(entry.session.phase).toBe('qr');
    expect(entry.traffic).toMatchObject({ sent: 0, failed: 0, received: 0 });
    const failed = await t.ctx.gateway.send('id-mon-remote', { to: '6281234567890', text: 'x' });
    expect(failed.ok).toBe(false);
    const after = await t.http.get('/api/dev/monitor/remote?id=id-mon-remote').set(dev.auth);
    expect(after.body.data[0].traffic.failed).toBe(1);
    expect(after.body.data[0].traffic.lastErrors[0].code).toBe('not_connected');
  });

  it('local has one session entry per account, with its state and reconnect count', async () => {
    const member = await t.user('member');
    const account = await linkByQr(t, member, { phonenumber: '6281344400011' });
    const local = await t.http.get('/api/dev/monitor/local').set(dev.auth);
    const sessions = local.body.data.filter((e: { type: string }) => e.type === 'session');
    const mine = sessions.find((e: { accountId: number }) => e.accountId === account.id);
    expect(mine).toMatchObject({ deviceId: account.deviceId, owner: { id: member.id }, state: 'connected', gatewayState: 'connected', reconnectTime: 0, loop: null });
    expect(sessions.filter((e: { deviceId: string }) => e.deviceId === account.deviceId)).toHaveLength(1);
  });
});
