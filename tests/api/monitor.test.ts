import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

let t: TestApp;
let dev: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  dev = await t.user('dev');
});
afterAll(() => t.close());

describe('developer monitor calls', () => {
  it('local answers this process view with sessions, uptime and memory', async () => {
    const res = await t.http.get('/api/dev/monitor/local').set(dev.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.process.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(res.body.data.process.memory.rss).toBeGreaterThan(0);
    expect(Array.isArray(res.body.data.sessions)).toBe(true);
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
  it('remote shows the simulator session record with traffic counters; local lists the session', async () => {
    const snap = await t.ctx.gateway.startSession('id-mon-remote', { method: 'qr' });
    expect(snap.deviceId).toBe('id-mon-remote');
    const local = await t.http.get('/api/dev/monitor/local').set(dev.auth);
    expect(local.body.data.linking.map((s: { deviceId: string }) => s.deviceId)).toContain('id-mon-remote');
    const res = await t.http.get('/api/dev/monitor/remote?id=id-mon-remote').set(dev.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.session.deviceId).toBe('id-mon-remote');
    expect(res.body.data.session.phase).toBe('qr');
    expect(res.body.data.traffic).toMatchObject({ sent: 0, failed: 0, received: 0 });
    const failed = await t.ctx.gateway.send('id-mon-remote', { to: '6281234567890', text: 'x' });
    expect(failed.ok).toBe(false);
    const after = await t.http.get('/api/dev/monitor/remote?id=id-mon-remote').set(dev.auth);
    expect(after.body.data.traffic.failed).toBe(1);
    expect(after.body.data.traffic.lastErrors[0].code).toBe('not_connected');
  });
});
