import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { eq } from 'drizzle-orm';
import { one } from '../../server/src/db/raw';
import { whatsapps } from '../../server/src/db/schema';
import { createUser, issueToken } from '../../server/src/auth/service';
import { SIM } from '../helpers';
import { redisUnreachable, REDIS, twoNodesOnRedis } from './cluster-fixtures';

const down = await redisUnreachable();
if (down) console.warn(`\n!!! Redis tests SKIPPED: ${REDIS} does not answer (${down}) !!!\n`);

/**
 * A device being linked lives in the gateway session of the node that started it. With Redis, the
 * member's next calls may reach another node (no sticky session, or a failover of the proxy): that
 * node forwards them to the holder, so the QR code, the wait for the phone, the state and the save
 * all work from either node.
 */
describe.skipIf(down !== null)('linking sessions shared between nodes', () => {
  const cluster = twoNodesOnRedis('linking');
  const { prefix } = cluster;

  it('links a device started on one node through calls answered by the other', async () => {
    const [a, b] = cluster.nodes();
    const member = await createUser(cluster.db(), { firstname: 'Budi', lastname: 'Dua', email: `budi-${prefix}@test.local`, password: 'password123', role: 'member', referredBy: null });
    const other = await createUser(cluster.db(), { firstname: 'Sari', lastname: 'Lain', email: `sari-${prefix}@test.local`, password: 'password123', role: 'member', referredBy: null });
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
    const row = await one(cluster.db().select().from(whatsapps).where(eq(whatsapps.deviceId, deviceId)));
    expect(row).toMatchObject({ userId: member.id, phonenumber: '6281277770001', pushname: 'Budi Dua' });
    // Saved once: a second save is answered as a link that is gone.
    expect((await request(b.url).post('/api/admin/whatsapp/save').set(auth).send({ ...message.body.message, proxyId: created.body.proxyId, user_id: null })).status).toBe(404);
  });

  it('removes a link held by the other node', async () => {
    const [a, b] = cluster.nodes();
    const member = await createUser(cluster.db(), { firstname: 'Rina', lastname: 'Tiga', email: `rina-${prefix}@test.local`, password: 'password123', role: 'member', referredBy: null });
    const auth = { Authorization: `Bearer ${await issueToken(b.ctx, member, false)}` };
    const deviceId = `id-${Date.now()}-${crypto.randomBytes(2).toString('hex')}`;
    expect((await request(b.url).post('/api/admin/whatsapp/new-client').set(auth).send({ deviceId, userId: member.id, previousDeviceId: null })).status).toBe(200);
    expect((await request(a.url).post('/api/admin/whatsapp/remove-client').set(auth).send({ deviceId })).status).toBe(200);
    expect(b.ctx.gateway.snapshot(deviceId)).toBeNull();
    expect((await request(a.url).get(`/api/admin/whatsapp/client-state/${deviceId}`).set(auth)).status).toBe(404);
  });
});
