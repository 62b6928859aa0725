import crypto from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import request from 'supertest';
import { io as ioClient, type Socket } from 'socket.io-client';
import { createUser, issueToken } from '../../server/src/auth/service';
import { redisUnreachable, REDIS, twoNodesOnRedis } from './cluster-fixtures';
import { unbatched } from '../helpers';

const down = await redisUnreachable();
if (down) console.warn(`\n!!! Redis tests SKIPPED: ${REDIS} does not answer (${down}) !!!\n`);

/** Two nodes: each its own app, socket.io and Redis link, one database and one Redis prefix. */
describe.skipIf(down !== null)('two nodes sharing Redis', () => {
  const cluster = twoNodesOnRedis('redis');
  // Another install on the same Redis: its own database and REDIS_PREFIX.
  const other = twoNodesOnRedis('other');
  const { prefix } = cluster;
  const sockets: Socket[] = [];
  afterAll(() => {
    for (const s of sockets) s.disconnect();
  });

  it('delivers an event emitted on one node to a socket connected to the other', async () => {
    const [a, b] = cluster.nodes();
    const member = await createUser(cluster.db(), { firstname: 'Rina', lastname: 'Dua', email: `rina-${prefix}@test.local`, password: 'password123', role: 'member', referredBy: null });
    const token = await issueToken(b.ctx, member, false);
    const socket = unbatched(ioClient(b.url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true }));
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const received = new Promise<{ event: string; data: unknown }>((resolve) => socket.once(String(member.id), resolve));
    a.ctx.realtime.toUserAndAdmin(member.id, 'balance', { balance: 1234 });
    const message = await received;
    expect(message).toMatchObject({ event: 'balance', data: { balance: 1234 } });
  });

  /** A member with a live socket on node `at`. */
  async function memberOn(at: { url: string; ctx: Parameters<typeof issueToken>[0] }, name: string) {
    const member = await createUser(cluster.db(), { firstname: name, lastname: 'Dua', email: `${name.toLowerCase()}-${prefix}@test.local`, password: 'password123', role: 'member', referredBy: null });
    const token = await issueToken(at.ctx, member, false);
    const socket = ioClient(at.url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return { member, token, socket };
  }

  it('counts the members connected to either node as active on both', async () => {
    const [a, b] = cluster.nodes();
    const { member } = await memberOn(b, 'Sari');
    expect((await a.ctx.realtime.connectedUserIds('member')).has(member.id)).toBe(true);
    const admin = await createUser(cluster.db(), { firstname: 'Adi', lastname: 'Min', email: `adi-${prefix}@test.local`, password: 'password123', role: 'admin', referredBy: null });
    const auth = { Authorization: `Bearer ${await issueToken(a.ctx, admin, false)}` };
    const onA = await request(a.url).get('/api/admin/users/active').set(auth);
    const onB = await request(b.url).get('/api/admin/users/active').set(auth);
    expect(onA.body.count).toBeGreaterThanOrEqual(1);
    expect(onA.body.count).toBe(onB.body.count);
  });

  it("a password change or a sign-out through one node closes the user's sockets on the other", async () => {
    const [a, b] = cluster.nodes();
    const changed = await memberOn(b, 'Tari');
    const closed = new Promise<void>((resolve) => changed.socket.once('disconnect', () => resolve()));
    const admin = await createUser(cluster.db(), { firstname: 'Ani', lastname: 'Min', email: `ani-${prefix}@test.local`, password: 'password123', role: 'admin', referredBy: null });
    const put = await request(a.url)
      .put(`/api/admin/users/${changed.member.id}`)
      .set({ Authorization: `Bearer ${await issueToken(a.ctx, admin, false)}` })
      .send({ password: 'another-password-1' });
    expect(put.status).toBe(200);
    await closed;

    const out = await memberOn(b, 'Wati');
    const gone = new Promise<void>((resolve) => out.socket.once('disconnect', () => resolve()));
    expect((await request(a.url).post('/api/auth/logout').set({ Authorization: `Bearer ${out.token}` })).status).toBe(200);
    await gone;
  });

  it('counts sign-in failures across nodes', async () => {
    const email = `nobody-${prefix}@test.local`;
    const codes: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const node = cluster.nodes()[i % 2]!;
      const res = await request(node.url).post('/api/auth/login').send({ email, password: 'wrong-password' });
      codes.push(res.status);
    }
    // Ten failures are answered as such, whichever node got them; the eleventh is locked out.
    expect(codes.slice(0, 10).every((c) => c !== 429)).toBe(true);
    expect(codes[10]).toBe(429);
  });

  it('an install with another REDIS_PREFIX on the same Redis receives none of these events and counts none of these members', async () => {
    const [a, b] = cluster.nodes();
    const [c] = other.nodes();
    expect(other.prefix).not.toBe(prefix);
    const adminOn = async (node: typeof c, db: ReturnType<typeof cluster.db>) => {
      const admin = await createUser(db, { firstname: 'Adm', lastname: 'In', email: `adm-${crypto.randomUUID()}@test.local`, password: 'password123', role: 'admin', referredBy: null });
      const socket = ioClient(node.url, { auth: { token: await issueToken(node.ctx, admin, false) }, transports: ['websocket'], reconnection: false, forceNew: true });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const seen: string[] = [];
      socket.onAny((event: string) => seen.push(event));
      return seen;
    };
    const mine = await adminOn(b, cluster.db());
    const theirs = await adminOn(c, other.db());
    const { member } = await memberOn(b, 'Lina');
    a.ctx.realtime.toUserAndAdmin(member.id, 'balance', { balance: 99 });
    await vi.waitFor(() => expect(mine.length).toBeGreaterThan(0), { timeout: 3000, interval: 20 });
    await new Promise((r) => setTimeout(r, 300));
    expect(theirs).toEqual([]);
    expect((await c.ctx.realtime.connectedUserIds('member')).has(member.id)).toBe(false);
    expect((await a.ctx.realtime.connectedUserIds('member')).has(member.id)).toBe(true);
  });
});
