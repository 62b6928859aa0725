import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createClient } from 'redis';
import { eq } from 'drizzle-orm';
import { testConfig } from '../../server/src/config';
import { closeDb, createTestDb, type Db } from '../../server/src/db/client';
import { one } from '../../server/src/db/raw';
import { whatsapps } from '../../server/src/db/schema';
import { createContext, type AppContext } from '../../server/src/context';
import { createServer } from '../../server/src/server';
import { createUser, issueToken } from '../../server/src/auth/service';
import { connectRedis } from '../../server/src/cluster/redis';
import { SIM } from '../helpers';

const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function unreachable(url: string): Promise<string | null> {
  const c = createClient({ url, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.quit();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
const down = await unreachable(REDIS);
if (down) console.warn(`\n!!! Redis tests SKIPPED: ${REDIS} does not answer (${down}) !!!\n`);

interface Node {
  ctx: AppContext;
  url: string;
  close: () => Promise<void>;
}

/**
 * A device being linked lives in the gateway session of the node that started it. With Redis, the
 * member's next calls may reach another node (no sticky session, or a failover of the proxy): that
 * node forwards them to the holder, so the QR code, the wait for the phone, the state and the save
 * all work from either node.
 */
describe.skipIf(down !== null)('linking sessions shared between nodes', () => {
  const prefix = `blast-test-${crypto.randomBytes(4).toString('hex')}:`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-linking-'));
  let db: Db;
  const nodes: Node[] = [];

  async function startNode(): Promise<Node> {
    const ctx = createContext(testConfig({ dataDir }), db, () => undefined);
    ctx.redis = await connectRedis(REDIS, prefix);
    const { server, close } = createServer(ctx);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      ctx,
      url,
      close: async () => {
        await close();
        await ctx.redis?.close();
      },
    };
  }

  beforeAll(async () => {
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    db = await createTestDb(path.join(dataDir, 'shared.db'));
    nodes.push(await startNode(), await startNode());
  });

  afterAll(async () => {
    for (const n of nodes) await n.close();
    const c = createClient({ url: REDIS });
    await c.connect();
    for await (const keys of c.scanIterator({ MATCH: `${prefix}*` })) if (keys.length) await c.del(keys);
    await c.quit();
    await closeDb(db);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('links a device started on one node through calls answered by the other', async () => {
    const [a, b] = nodes as [Node, Node];
    const member = await createUser(db, { firstname: 'Budi', lastname: 'Dua', email: `budi-${prefix}@test.local`, password: 'password123', role: 'member', referredBy: null });
    const other = await createUser(db, { firstname: 'Sari', lastname: 'Lain', email: `sari-${prefix}@test.local`, password: 'password123', role: 'member', referredBy: null });
    const auth = { Authorization: `Bearer ${await issueToken(a.ctx, member, false)}` };
    const otherAuth = { Authorization: `Bearer ${await issueToken(a.ctx, other, false)}` };
    const deviceId = `id-${Date.now()}-${crypto.randomBytes(2).toString('hex')}`;

    const created = await request(a.url).post('/api/admin/whatsapp/new-client').set(auth).send({ deviceId, userId: member.id, previousDeviceId: null });
    expect(created.status).toBe(200);
    // Node B never saw this device; it asks node A.
    expect(b.ctx.gateway.snapshot(deviceId)).toBeNull();
    const qr = await request(b.url).get(`/api/admin/whatsapp/qr-new-client/${deviceId}`).set(auth);
    expect(qr.status).toBe(200);
    expect(qr.body.qr).toBe(a.ctx.gateway.snapshot(deviceId)?.qr);
    const waiting = await request(b.url).get(`/api/admin/whatsapp/client-state/${deviceId}`).set(auth);
    expect(waiting.body).toMatchObject({ state: 'QR', qr: qr.body.qr });
    // Someone else's link stays theirs, whichever node is asked.
    expect((await request(b.url).get(`/api/admin/whatsapp/client-state/${deviceId}`).set(otherAuth)).status).toBe(404);

    // The simulated phone scans the code shown by node A's session; node B's long poll answers.
    const listen = request(b.url).get(`/api/admin/whatsapp/listen-message-created/${deviceId}`).set(auth).then((r) => r);
    const scanned = await request(a.url).post('/api/sim/scan').set(SIM).send({ qr: qr.body.qr, phonenumber: '6281277770001', pushname: 'Budi Dua' });
    expect(scanned.status).toBe(200);
    const message = await listen;
    expect(message.status).toBe(200);
    expect(message.body.message).toMatchObject({ clientid: deviceId, phonenumber: '6281277770001', pushname: 'Budi Dua' });

    const saved = await request(b.url)
      .post('/api/admin/whatsapp/save')
      .set(auth)
      .send({ ...message.body.message, proxyId: created.body.proxyId, user_id: null });
    expect(saved.status).toBe(200);
    expect(saved.body.msg).toBe('Akun WhatsApp berhasil disimpan');
    const row = await one(db.select().from(whatsapps).where(eq(whatsapps.deviceId, deviceId)));
    expect(row).toMatchObject({ userId: member.id, phonenumber: '6281277770001', pushname: 'Budi Dua' });
    // Saved once: a second save is answered as a link that is gone.
    expect((await request(b.url).post('/api/admin/whatsapp/save').set(auth).send({ ...message.body.message, proxyId: created.body.proxyId, user_id: null })).status).toBe(404);
  });

  it('removes a link held by the other node', async () => {
    const [a, b] = nodes as [Node, Node];
    const member = await createUser(db, { firstname: 'Rina', lastname: 'Tiga', email: `rina-${prefix}@test.local`, password: 'password123', role: 'member', referredBy: null });
    const auth = { Authorization: `Bearer ${await issueToken(b.ctx, member, false)}` };
    const deviceId = `id-${Date.now()}-${crypto.randomBytes(2).toString('hex')}`;
    expect((await request(b.url).post('/api/admin/whatsapp/new-client').set(auth).send({ deviceId, userId: member.id, previousDeviceId: null })).status).toBe(200);
    expect((await request(a.url).post('/api/admin/whatsapp/remove-client').set(auth).send({ deviceId })).status).toBe(200);
    expect(b.ctx.gateway.snapshot(deviceId)).toBeNull();
    expect((await request(a.url).get(`/api/admin/whatsapp/client-state/${deviceId}`).set(auth)).status).toBe(404);
  });
});
