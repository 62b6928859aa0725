import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, nextMessage, sleep, startTestApp, type TestApp } from '../helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('live connection', () => {
  it('refuses a handshake without a valid token', async () => {
    await expect(connected(t.socket())).rejects.toThrow();
    await expect(connected(t.socket('not-a-token'))).rejects.toThrow();
  });

  it('refuses a handshake from another site', async () => {
    const m = await t.user('member');
    await expect(connected(t.socket(m.token, 'https://evil.example'))).rejects.toThrow();
    await connected(t.socket(m.token, t.baseUrl));
  });

  it('a member receives their own channel only; admin receives admin', async () => {
    const a = await t.user('member');
    const b = await t.user('member');
    const admin = await t.user('admin');
    const sa = t.socket(a.token);
    const sb = t.socket(b.token);
    const sadmin = t.socket(admin.token);
    await Promise.all([connected(sa), connected(sb), connected(sadmin)]);
    const leaked: unknown[] = [];
    sb.on(String(a.id), (m: unknown) => leaked.push(m));
    sb.on('admin', (m: unknown) => leaked.push(m));
    const mine = nextMessage(sa, String(a.id), (m) => m.event === 'ping');
    const adminGot = nextMessage(sadmin, 'admin', (m) => m.event === 'ping');
    t.ctx.realtime.toUserAndAdmin(a.id, 'ping', { count_success: 3 });
    expect((await mine).data).toEqual({ count_success: 3 });
    expect((await adminGot).data).toEqual({ count_success: 3 });
    await sleep(100);
    expect(leaked).toEqual([]);
  });

  it('a password change disconnects the user\'s open sockets', async () => {
    const m = await t.user('member');
    const s = t.socket(m.token);
    await connected(s);
    const gone = new Promise<void>((resolve) => s.once('disconnect', () => resolve()));
    await t.http.put(`/api/admin/users/${m.id}`).set(m.auth).send({ password: 'another-pass-1' }).expect(200);
    await gone;
    expect(s.connected).toBe(false);
  });

  it('signing out closes the sockets opened with that token', async () => {
    const m = await t.user('member');
    const s = t.socket(m.token);
    await connected(s);
    const gone = new Promise<void>((resolve) => s.once('disconnect', () => resolve()));
    await t.http.post('/api/auth/logout').set(m.auth).expect(200);
    await gone;
    expect(s.connected).toBe(false);
  });
});
