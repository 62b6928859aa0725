import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one } from '../../server/src/db/raw';
import { eq } from 'drizzle-orm';
import { connected, startTestApp, type TestApp, type TestUser, SIM } from '../helpers';
import { messageLogs, whatsapps } from '../../server/src/db/schema';
import { ROLE_DENIED } from '../../server/src/auth/middleware';
import { engineFor } from '../../server/src/engine/engine';
import { DISCONNECTED_MSG, SUSPENDED_MSG } from '../../server/src/engine/service';
import { eventually, linkByQr, type LinkedAccount } from './whatsapp-fixtures';
import { addTargets, addTemplate, invariantViolations, setRules, startBlast, stopBlast, untilIdle } from './engine-fixtures';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;
let staff: TestUser;
let dev: TestUser;
let acc: LinkedAccount;

beforeAll(async () => {
  // A network with some latency, so a send is in flight when a stop arrives.
  t = await startTestApp({ sim: { seed: 'test', latencyMs: 40, failureRate: 0 } });
  owner = await t.user('member');
  stranger = await t.user('member');
  admin = await t.user('admin');
  staff = await t.user('staff');
  dev = await t.user('dev');
  acc = await linkByQr(t, owner, { phonenumber: '6281255550001' });
  await eventually(async () => (await one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, acc.id)))), (r) => r?.state === 'connected');
  await addTargets(t, 400);
  await addTemplate(t.ctx.db);
  await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, recipientCooldownHours: 24 });
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

const row = async () => (await one(t.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, acc.id))))!;

describe('who may start and stop a blast', () => {
  it("refuses admin and staff by role, and another member's account as not theirs", async () => {
    for (const u of [admin, staff]) {
      const res = await startBlast(t, u, acc.id);
      expect(res.status).toBe(403);
      expect(res.body.msg).toBe(ROLE_DENIED);
    }
    const res = await startBlast(t, stranger, acc.id);
    expect(res.status).toBe(403);
    expect((await stopBlast(t, stranger, acc.id)).status).toBe(403);
    expect((await startBlast(t, owner, 999_999)).status).toBe(404);
    expect((await startBlast(t, owner, 'id-unknown-1')).status).toBe(404);
    expect((await row()).status).toBe('idle');
    expect(engineFor(t.ctx).loopOf(acc.id)).toBeUndefined();
  });

  it('lets the owner start by id and stop after the send in flight', async () => {
    const started = await startBlast(t, owner, acc.id);
    expect(started.status).toBe(200);
    expect(started.body.data.status).toBe('sending');
    await eventually(async () => (await row()).countSuccess, (n) => n >= 3);
    const stopped = await stopBlast(t, owner, acc.id);
    expect(stopped.status).toBe(200);
    expect(stopped.body.data.status).toBe('idle');
    // The send in flight was recorded before the answer: nothing is claimed and counters equal the log.
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
    const after = (await t.ctx.db.select().from(messageLogs)).length;
    await new Promise((r) => setTimeout(r, 150));
    expect((await t.ctx.db.select().from(messageLogs)).length).toBe(after);
    expect(stopped.body.data.count_success).toBe(after);
  });

  it('lets dev start any account, by its WhatsApp ID too, and never runs two loops for one account', async () => {
    const first = await startBlast(t, dev, acc.clientid);
    expect(first.status).toBe(200);
    const loop = engineFor(t.ctx).loopOf(acc.id);
    expect(loop).toBeDefined();
    const again = await startBlast(t, owner, acc.id);
    expect(again.status).toBe(200);
    expect(engineFor(t.ctx).loopOf(acc.id)).toBe(loop);
    expect(engineFor(t.ctx).running).toBe(1);
    expect((await stopBlast(t, dev, acc.id)).status).toBe(200);
    expect(engineFor(t.ctx).running).toBe(0);
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it('refuses to start an account that is not connected, with the spec message', async () => {
    for (const state of ['disconnected', 'conflict'] as const) {
      await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: acc.deviceId, state });
      await eventually(async () => (await row()).state, (s) => s === state);
      const res = await startBlast(t, owner, acc.id);
      expect(res.status).toBe(403);
      expect(res.body.msg).toBe(DISCONNECTED_MSG);
      expect(res.body.code).toBe(2);
      expect((await stopBlast(t, owner, acc.id)).body.msg).toBe(DISCONNECTED_MSG);
      await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: acc.deviceId, state: 'connected' });
      await eventually(async () => (await row()).state, (s) => s === 'connected');
    }
    await t.ctx.db.update(whatsapps).set({ state: null }).where(eq(whatsapps.id, acc.id));
    expect((await startBlast(t, owner, acc.id)).body.msg).toBe(DISCONNECTED_MSG);
    await t.ctx.db.update(whatsapps).set({ state: 'connected' }).where(eq(whatsapps.id, acc.id));
  });

  it('goes idle when the device drops in the middle of a blast', async () => {
    const socket = t.socket(owner.token);
    await connected(socket);
    const events: string[] = [];
    socket.on(String(owner.id), (m: { event: string; data: { id: number } }) => {
      if (m.data.id === acc.id) events.push(m.event);
    });
    await startBlast(t, owner, acc.id);
    const base = (await row()).countSuccess;
    await eventually(async () => (await row()).countSuccess, (n) => n >= base + 2);
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: acc.deviceId, state: 'disconnected' });
    const idle = await untilIdle(t, owner, acc.id);
    expect(idle.state).toBe('disconnected');
    await eventually(() => events, (e) => e.includes('idle'));
    expect(events).toContain('idle');
    expect(engineFor(t.ctx).loopOf(acc.id)).toBeUndefined();
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: acc.deviceId, state: 'connected' });
    await eventually(async () => (await row()).state, (s) => s === 'connected');
  });

  it('ends the loop when the row is set idle through PUT status', async () => {
    await startBlast(t, owner, acc.id);
    await eventually(() => engineFor(t.ctx).loopOf(acc.id), (l) => l !== undefined);
    const res = await t.http.put('/api/admin/whatsapp/status').set(owner.auth).send({ id: acc.id, status: 'idle' });
    expect(res.status).toBe(200);
    await eventually(() => engineFor(t.ctx).loopOf(acc.id), (l) => l === undefined);
    expect(engineFor(t.ctx).loopOf(acc.id)).toBeUndefined();
    expect((await row()).status).toBe('idle');
    expect(await invariantViolations(t.ctx.db)).toEqual([]);
  });

  it('refuses a suspended account', async () => {
    await t.ctx.db.update(whatsapps).set({ suspended: true, suspendedCount: 1 }).where(eq(whatsapps.id, acc.id));
    const res = await startBlast(t, owner, acc.id);
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe(SUSPENDED_MSG);
    await t.ctx.db.update(whatsapps).set({ suspended: false, suspendedCount: 0 }).where(eq(whatsapps.id, acc.id));
  });
});
