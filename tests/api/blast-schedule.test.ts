import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { blastSchedules } from '../../server/src/db/schema';
import { engineFor } from '../../server/src/engine/engine';
import { BlastScheduler, SCHEDULE_LEASE_MS, closeScheduler } from '../../server/src/engine/schedule';
import { connected, nextMessage, SIM, startTestApp, type TestApp, type TestUser } from '../helpers';
import { addTargets, addTemplate, setRules, untilIdle } from './engine-fixtures';
import { eventually, linkByQr, type LinkedAccount } from './whatsapp-fixtures';

let t: TestApp;
let member: TestUser;
let other: TestUser;
let admin: TestUser;
let account: LinkedAccount;

const MINUTE = 60_000;
const schedule = (user: TestUser, whatsappClientId: number | string, at: unknown) =>
  t.http.post('/api/admin/whatsapp/schedule-blasting').set(user.auth).send({ whatsappClientId, at });
const cancel = (user: TestUser, whatsappClientId: number | string) => t.http.post('/api/admin/whatsapp/cancel-schedule').set(user.auth).send({ whatsappClientId });
const rowOf = async (user: TestUser, id: number) => (await t.http.get(`/api/admin/whatsapp/${id}`).set(user.auth)).body.whatsapp as Record<string, unknown>;
const pending = async (id: number) => t.ctx.db.select().from(blastSchedules).where(eq(blastSchedules.whatsappId, id));

beforeAll(async () => {
  t = await startTestApp({ sim: { seed: 'schedule', latencyMs: 0, failureRate: 0 } });
  // The tests drive the schedulers themselves, with a clock of their own.
  closeScheduler(t.ctx);
  member = await t.user('member');
  other = await t.user('member');
  admin = await t.user('admin');
  account = await linkByQr(t, member, { phonenumber: '6281299990181', pushname: 'Terjadwal' });
  await setRules(t.ctx.db, { intervalMin: 0, intervalMax: 0, price: 100, recipientCooldownHours: 24 });
  await addTemplate(t.ctx.db);
});
afterAll(async () => {
  await engineFor(t.ctx).shutdown();
  await t.close();
});

describe('setting and cancelling a scheduled start', () => {
  it('keeps one schedule per account, shown on the row, and refuses a time too soon, too far or missing', async () => {
    const at = new Date(Date.now() + 2 * 3600_000);
    const set = await schedule(member, account.id, at.toISOString());
    expect(set.status).toBe(200);
    expect(set.body.msg).toBe('Blast dijadwalkan');
    expect(set.body.data.scheduled_at).toBe(at.toISOString());
    expect((await rowOf(member, account.id)).scheduled_at).toBe(at.toISOString());

    // Moving it replaces the time; still one row.
    const later = new Date(Date.now() + 3 * 3600_000);
    expect((await schedule(member, account.clientid, later.getTime())).status).toBe(200);
    expect(await pending(account.id)).toHaveLength(1);
    expect((await rowOf(member, account.id)).scheduled_at).toBe(later.toISOString());

    const soon = await schedule(member, account.id, new Date(Date.now() + 10_000).toISOString());
    expect(soon.status).toBe(422);
    expect(soon.body.code).toBe('schedule_past');
    expect(soon.body.errors.at).toBe('Waktu jadwal harus paling cepat 1 menit dari sekarang');
    const far = await schedule(member, account.id, new Date(Date.now() + 31 * 24 * 3600_000).toISOString());
    expect(far.status).toBe(422);
    expect(far.body.code).toBe('schedule_far');
    const missing = await schedule(member, account.id, 'besok pagi');
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('schedule_at_required');
    // The refused ones changed nothing.
    expect((await rowOf(member, account.id)).scheduled_at).toBe(later.toISOString());
  });

  it("lets the owner, admin and dev reach it, never another member, and a cancel removes it once", async () => {
    const at = new Date(Date.now() + 3600_000).toISOString();
    const foreign = await schedule(other, account.id, at);
    expect(foreign.status).toBe(403);
    expect((await cancel(other, account.id)).status).toBe(403);
    expect((await schedule(admin, account.id, at)).status).toBe(200);

    const socket = t.socket(member.token);
    await connected(socket);
    const told = nextMessage(socket, String(member.id), (m) => m.event === 'scheduled');
    const cancelled = await cancel(member, account.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.msg).toBe('Jadwal blast dibatalkan');
    expect((await told).data).toMatchObject({ id: account.id, scheduled_at: null });
    expect((await rowOf(member, account.id)).scheduled_at).toBeNull();
    const again = await cancel(member, account.id);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('schedule_none');
    socket.disconnect();
  });
});

describe('a schedule that comes due', () => {
  it('starts the blast once, even when two nodes look at the same moment, and is gone after', async () => {
    await addTargets(t, 3);
    const at = Date.now() + 2 * MINUTE;
    expect((await schedule(member, account.id, new Date(at).toISOString())).status).toBe(200);

    // Not due yet: nothing is claimed.
    const a = new BlastScheduler(t.ctx);
    const b = new BlastScheduler(t.ctx);
    expect(await a.runDue(at - 1000)).toBe(0);

    const [ca, cb] = await Promise.all([a.runDue(at + 1000), b.runDue(at + 1000)]);
    expect(ca + cb).toBe(1);
    const idle = await untilIdle(t, member, account.id);
    expect(idle.count_success).toBe(3);
    expect(idle.scheduled_at).toBeNull();
    expect(await pending(account.id)).toHaveLength(0);
  });

  it('is still started after a restart, and one a node claimed and never finished is taken over after its lease', async () => {
    await addTargets(t, 1, 3);
    const at = Date.now() + 2 * MINUTE;
    expect((await schedule(member, account.id, new Date(at).toISOString())).status).toBe(200);
    // A node claimed it at its time and went away before starting it.
    await t.ctx.db.update(blastSchedules).set({ claimedUntil: new Date(at + SCHEDULE_LEASE_MS) }).where(eq(blastSchedules.whatsappId, account.id));

    // The process that starts next finds it in the database: not while the lease holds, then once.
    const restarted = new BlastScheduler(t.ctx);
    expect(await restarted.runDue(at + 1000)).toBe(0);
    expect(await restarted.runDue(at + SCHEDULE_LEASE_MS + 1000)).toBe(1);
    expect((await untilIdle(t, member, account.id)).count_success).toBe(4);
    expect(await pending(account.id)).toHaveLength(0);
  });

  it('on an account that is not connected at its time ends with the disconnected message in its events, not retried', async () => {
    const at = Date.now() + 2 * MINUTE;
    expect((await schedule(member, account.id, new Date(at).toISOString())).status).toBe(200);
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: account.deviceId, state: 'disconnected' }).expect(200);
    await eventually(
      () => rowOf(member, account.id),
      (r) => r.state === 'disconnected',
    );

    const socket = t.socket(member.token);
    await connected(socket);
    const ended = nextMessage(socket, String(member.id), (m) => m.event === 'error_blast');
    const scheduler = new BlastScheduler(t.ctx);
    expect(await scheduler.runDue(at + 1000)).toBe(1);
    expect((await ended).data).toMatchObject({ id: account.id, message: 'Sambungan terputus, silahkan sambungkan ulang!', scheduled_at: null });
    expect(await pending(account.id)).toHaveLength(0);
    expect(await scheduler.runDue(at + SCHEDULE_LEASE_MS * 2)).toBe(0);
    const row = await rowOf(member, account.id);
    expect(row.status).toBe('idle');
    expect(row.count_success).toBe(4);
    socket.disconnect();
  });
});
