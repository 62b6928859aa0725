import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/src/auth/jwt';
import { sessionFingerprint } from '../../server/src/auth/middleware';
import { issueToken } from '../../server/src/auth/service';
import { one } from '../../server/src/db/raw';
import { users, whatsapps } from '../../server/src/db/schema';
import { intervalSeconds, type RuleSnapshot } from '../../server/src/engine/snapshot';
import { connected, nextMessage, sleep, startTestApp, type TestApp, type TestUser } from '../helpers';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

const closed = (s: Socket, timeoutMs = 4000) =>
  new Promise<string>((resolve, reject) => {
    if (s.disconnected) return resolve('already');
    const timer = setTimeout(() => reject(new Error('socket still open')), timeoutMs);
    s.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });

/** True when a message on the channel arrives within the time. */
const receives = (s: Socket, channel: string, ms = 400) =>
  nextMessage(s, channel, () => true, ms).then(
    () => true,
    () => false,
  );

describe('live connections follow the token', () => {
  it('a dev whose role is taken away stops receiving admin and client-admin events at once', async () => {
    const dev = await t.user('dev');
    const s = t.socket(dev.token);
    await connected(s);
    const before = receives(s, 'admin');
    t.ctx.realtime.toAdmin('withdraw', { id: 1 });
    expect(await before).toBe(true);
    // The role changed in the database (an operator's fix); the open socket is re-checked.
    await t.ctx.db.update(users).set({ role: 'member' }).where(eq(users.id, dev.id));
    await t.ctx.realtime.recheckUser(dev.id);
    await sleep(50);
    const admins = receives(s, 'admin');
    const monitor = receives(s, 'client-admin');
    t.ctx.realtime.toAdmin('withdraw', { id: 2, account_number: '123' });
    t.ctx.realtime.toClientAdmin('connection.update', { id: 3 });
    expect(await admins).toBe(false);
    expect(await monitor).toBe(false);
    const own = receives(s, String(dev.id));
    t.ctx.realtime.toUser(dev.id, 'balance', { balance: 0 });
    expect(await own).toBe(true);
  });

  it('a role change through the API ends the user sessions: HTTP 401 and the socket closes', async () => {
    const m = await t.user('member');
    const s = t.socket(m.token);
    await connected(s);
    const gone = closed(s);
    expect((await t.http.put(`/api/admin/users/${m.id}`).set(admin.auth).send({ role: 'staff' })).status).toBe(200);
    await gone;
    expect((await t.http.get(`/api/admin/users/${m.id}`).set(m.auth)).status).toBe(401);
  });

  it('a password reset by admin closes the user sockets', async () => {
    const staff = await t.user('staff');
    const s = t.socket(staff.token);
    await connected(s);
    const gone = closed(s);
    expect((await t.http.put(`/api/admin/users/${staff.id}`).set(admin.auth).send({ password: 'gantibaru123' })).status).toBe(200);
    await gone;
  });

  it('a socket closes when its token expires', async () => {
    const m = await t.user('member');
    const short = await signToken(t.ctx.config.jwtSecret, { sub: m.id, role: 'member', fp: sessionFingerprint(m.row.passwordHash, m.row.sessionEpoch) }, 2);
    const s = t.socket(short);
    await connected(s);
    expect(await closed(s, 4500)).toBeTruthy();
    expect((await t.http.get(`/api/admin/users/${m.id}`).set('Authorization', `Bearer ${short}`)).status).toBe(401);
  });

  it('logout revokes the token for HTTP and sockets; the user other sessions stay', async () => {
    const m = await t.user('member');
    const other = await issueToken(t.ctx, m.row, false);
    const s = t.socket(m.token);
    await connected(s);
    const gone = closed(s);
    expect((await t.http.post('/api/auth/logout').set(m.auth)).status).toBe(200);
    await gone;
    expect((await t.http.get(`/api/admin/users/${m.id}`).set(m.auth)).status).toBe(401);
    expect((await t.http.post('/api/auth/validate').send({ token: m.token })).body).toEqual({ isvalid: false });
    await expect(connected(t.socket(m.token))).rejects.toThrow();
    expect((await t.http.get(`/api/admin/users/${m.id}`).set('Authorization', `Bearer ${other}`)).status).toBe(200);
  });
});

describe("an account's own interval never beats the operator's", () => {
  const account = async (userId: number, device: string) => (await t.ctx.db.insert(whatsapps).values({ deviceId: device, clientid: device, userId }).returning())[0]!;
  const setInterval = (who: TestUser, id: number, interval: number | null) => t.http.put('/api/admin/whatsapp/interval').set(who.auth).send({ id, interval });

  it('a member cannot shorten the pause below their minimum, nor undo an admin value', async () => {
    const m = await t.user('member');
    await t.http.put(`/api/admin/users/${m.id}`).set(admin.auth).send({ blast_interval_min: 5, blast_interval_max: 8 });
    const acc = await account(m.id, 'own-interval-1');
    const zero = await setInterval(m, acc.id, 0);
    expect(zero.status).toBe(422);
    expect(zero.body.msg).toBe('Interval tidak boleh lebih singkat dari 5 detik.');
    expect((await one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, acc.id))))!.interval).toBeNull();
    const longer = await setInterval(m, acc.id, 20);
    expect(longer.status).toBe(200);
    expect(longer.body.data.interval).toBe(20);

    const byAdmin = await setInterval(admin, acc.id, 1);
    expect(byAdmin.status).toBe(200);
    const undo = await setInterval(m, acc.id, null);
    expect(undo.status).toBe(403);
    expect(await one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, acc.id)))).toMatchObject({ interval: 1, ownInterval: false });
    const audit = (await t.http.get('/api/admin/audit?page=1').set(admin.auth)).body.data[0];
    expect(audit).toMatchObject({ action: 'whatsapp.interval', actorId: admin.id, targetUserId: m.id, details: { from: 20, to: 1 } });
  });

  it('the engine takes an owner value only when it lengthens the drawn pause', () => {
    const snap = { settings: { interval_min: 3, interval_max: 3, price: 0, referral_percent: 0, recipient_cooldown_hours: 24, send_from: '00:00', send_to: '00:00', time_zone: 'Asia/Jakarta' }, levels: [], templates: [] } as RuleSnapshot;
    const member = { blast_interval_min: 5, blast_interval_max: 5 };
    expect(intervalSeconds(snap, { interval: 0, own_interval: 1 }, member)).toBe(5);
    expect(intervalSeconds(snap, { interval: 9, own_interval: 1 }, member)).toBe(9);
    expect(intervalSeconds(snap, { interval: 0, own_interval: 0 }, member)).toBe(0);
    expect(intervalSeconds(snap, { interval: 0, own_interval: 1 }, undefined)).toBe(3);
  });
});
