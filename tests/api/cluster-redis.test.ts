import { afterAll, describe, expect, it } from 'vitest';
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
});
