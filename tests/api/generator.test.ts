import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestUser, SIM } from '../helpers';
import { optOuts, phoneNumbers } from '../../server/src/db/schema';
import { DISCONNECTED_MESSAGE, INTERVAL_ORDER_MESSAGE, RANGE_ORDER_MESSAGE } from '../../common/jobs';
import { eventually, linkByQr, type LinkedAccount } from './whatsapp-fixtures';
import { finished, jobUntil, rangeOf, record, registeredIn } from './generator-fixtures';

let t: TestApp;
let staff: TestUser;
let otherStaff: TestUser;
let admin: TestUser;
let dev: TestUser;
let member: TestUser;
let account: LinkedAccount;
let otherAccount: LinkedAccount;

beforeAll(async () => {
  t = await startTestApp();
  staff = await t.user('staff');
  otherStaff = await t.user('staff');
  admin = await t.user('admin');
  dev = await t.user('dev');
  member = await t.user('member');
  account = await linkByQr(t, staff, { pushname: 'Generator Kantor' });
  otherAccount = await linkByQr(t, otherStaff);
});
afterAll(() => t.close());

const body = (over: Record<string, unknown> = {}) => ({
  start_number: '6281300000000',
  end_number: '6281300000029',
  whatsapp_id: account.id,
  b_insert: 0,
  interval_min: 0,
  interval_max: 0,
  ...over,
});

async function create(user: TestUser, over: Record<string, unknown> = {}) {
  const res = await t.http.post('/api/admin/generator/create').set(user.auth).send(body(over));
  expect(res.status).toBe(201);
  return res.body.generator as { id: number; [k: string]: unknown };
}

describe('generator create and edit', () => {
  it('stores the range normalised like the phone list, with intervals 1 and 2 by default', async () => {
    const res = await t.http
      .post('/api/admin/generator/create')
      .set(staff.auth)
      .send({ start_number: '0813-0000-0000', end_number: '+62 813 0000 0009', whatsapp_id: String(account.id), b_insert: 'true' });
    expect(res.status).toBe(201);
    expect(res.body.generator).toMatchObject({
      start_number: '6281300000000',
      end_number: '6281300000009',
      total: 10,
      progress: 0,
      count_success: 0,
      count_fail: 0,
      b_insert: 1,
      interval_min: 1,
      interval_max: 2,
      status: 'idle',
      current_number: null,
      user_id: staff.id,
      Whatsapp: { id: account.id, pushname: 'Generator Kantor', phonenumber: account.phonenumber, clientid: account.clientid },
    });
  });

  it("answers the spec's messages for start > end and min > max, and refuses bad numbers and huge ranges", async () => {
    const order = await t.http.post('/api/admin/generator/create').set(staff.auth).send(body({ start_number: '6281300000100' }));
    expect(order.status).toBe(422);
    expect(order.body.msg).toBe(RANGE_ORDER_MESSAGE);
    const interval = await t.http.post('/api/admin/generator/create').set(staff.auth).send(body({ interval_min: 5, interval_max: 2 }));
    expect(interval.status).toBe(422);
    expect(interval.body.msg).toBe(INTERVAL_ORDER_MESSAGE);
    const bad = await t.http.post('/api/admin/generator/create').set(staff.auth).send(body({ start_number: '62abc' }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.start_number).toBeTruthy();
    const huge = await t.http.post('/api/admin/generator/create').set(staff.auth).send(body({ end_number: '6281300100000' }));
    expect(huge.status).toBe(422);
    expect(huge.body.msg).toMatch(/100\.000/);
    const noAccount = await t.http.post('/api/admin/generator/create').set(staff.auth).send(body({ whatsapp_id: 'new' }));
    expect(noAccount.status).toBe(422);
    expect(noAccount.body.errors.whatsapp_id).toBe('Akun WhatsApp wajib dipilih');
  });

  it("refuses another staff member's account", async () => {
    const res = await t.http.post('/api/admin/generator/create').set(staff.auth).send(body({ whatsapp_id: otherAccount.id }));
    expect(res.status).toBe(403);
  });

  it('edits intervals and b_insert; the range only until the job has checked a number', async () => {
    const job = await create(staff);
    const edited = await t.http.put(`/api/admin/generator/${job.id}`).set(staff.auth).send(body({ start_number: '6281300000005', interval_max: 3, b_insert: 1 }));
    expect(edited.status).toBe(200);
    expect(edited.body.generator).toMatchObject({ start_number: '6281300000005', total: 25, interval_max: 3, b_insert: 1 });
    await t.http.put(`/api/admin/generator/${job.id}`).set(staff.auth).send(body({ interval_max: 0 })).expect(200);
    await t.http.post('/api/admin/generator/start').set(staff.auth).send({ id: job.id }).expect(200);
    await jobUntil(t.http, staff.auth, 'generator', job.id, finished);
    const late = await t.http.put(`/api/admin/generator/${job.id}`).set(staff.auth).send(body({ end_number: '6281300000040' }));
    expect(late.status).toBe(409);
  });
});

describe('running a generator', () => {
  it('walks a 30-number range: success + fail = 30, results are exactly the registered numbers', async () => {
    const live = await record(t, staff);
    const watch = await record(t, admin, 'admin');
    const outsider = await record(t, otherStaff);
    const job = await create(staff);
    const started = await t.http.post('/api/admin/generator/start').set(staff.auth).send({ id: job.id });
    expect(started.status).toBe(200);
    expect(started.body.generator.status).toBe('sending');
    const done = await jobUntil(t.http, staff.auth, 'generator', job.id, finished);

    const numbers = rangeOf('6281300000000', 30);
    const expected = registeredIn(t.ctx.gateway, numbers);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(30);
    expect(done).toMatchObject({ count_success: expected.length, count_fail: 30 - expected.length, progress: 100, current_number: '6281300000029' });
    const result = await t.http.get(`/api/admin/generator/download-result/${job.id}`).set(staff.auth);
    expect(result.status).toBe(200);
    expect(result.body.list).toEqual(expected);

    const mine = await eventually(() => live.messages.filter((m) => m.data.id === job.id && m.data.job === 'generator'), (m) => m.some((x) => x.event === 'finished'));
    expect(mine[0]).toMatchObject({ event: 'generating', data: { status: 'sending' } });
    expect(mine.at(-1)).toMatchObject({ event: 'finished', data: { progress: 100, status: 'idle', state: 'finished', count_success: expected.length } });
    await eventually(() => watch.messages, (m) => m.some((x) => x.event === 'finished' && x.data.id === job.id));
    expect(outsider.messages.filter((m) => m.data.job === 'generator')).toEqual([]);
  });

  it('tells the owner and admin each step: progressing with progress and target, waiting with the seconds left', async () => {
    const live = await record(t, staff);
    const job = await create(staff, { end_number: '6281300000002', interval_min: 1, interval_max: 1 });
    await t.http.post('/api/admin/generator/start').set(staff.auth).send({ id: job.id }).expect(200);
    await jobUntil(t.http, staff.auth, 'generator', job.id, finished);
    const mine = await eventually(() => live.messages.filter((m) => m.data.id === job.id && m.data.job === 'generator'), (m) => m.some((x) => x.event === 'finished'));
    expect(mine.map((m) => m.event)).toEqual(['generating', 'progressing', 'waiting', 'progressing', 'waiting', 'progressing', 'finished']);
    expect(mine.filter((m) => m.event === 'progressing').map((m) => [m.data.target, m.data.progress, m.data.current_number])).toEqual([
      ['6281300000000', 33.33, '6281300000000'],
      ['6281300000001', 66.66, '6281300000001'],
      ['6281300000002', 100, '6281300000002'],
    ]);
    expect(mine.find((m) => m.event === 'waiting')!.data).toMatchObject({ waitTime: 1, status: 'sending' });
    const counts = mine.at(-1)!.data;
    expect(Number(counts.count_success) + Number(counts.count_fail)).toBe(3);
  });

  it('with b_insert adds exactly the registered numbers not yet in the list, never an opted-out one', async () => {
    const numbers = rangeOf('6281400000000', 30);
    const registered = registeredIn(t.ctx.gateway, numbers);
    expect(registered.length).toBeGreaterThanOrEqual(3);
    const [existing, optedOut] = registered;
    await t.ctx.db.insert(phoneNumbers).values({ number: existing!.number, name: 'Sudah Ada' });
    await t.ctx.db.insert(optOuts).values({ number: optedOut!.number, reason: 'STOP' });

    const job = await create(staff, { start_number: numbers[0], end_number: numbers[29], b_insert: 1 });
    await t.http.post('/api/admin/generator/start').set(staff.auth).send({ id: job.id }).expect(200);
    const done = await jobUntil(t.http, staff.auth, 'generator', job.id, finished);
    expect(done.count_success).toBe(registered.length);

    const listed = await t.ctx.db.select().from(phoneNumbers).where(inArray(phoneNumbers.number, numbers));
    const expectedNew = registered.filter((r) => r !== existing && r !== optedOut);
    expect(listed.map((p) => p.number).sort()).toEqual([existing!.number, ...expectedNew.map((r) => r.number)].sort());
    expect(listed.find((p) => p.number === existing!.number)!.name).toBe('Sudah Ada');
    for (const r of expectedNew) expect(listed.find((p) => p.number === r.number)).toMatchObject({ name: r.name, status: 'active' });
    expect(await t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.number, optedOut!.number))).toEqual([]);
  });

  it('start and stop are refused with the Forbidden message while the account is disconnected', async () => {
    const linked = await linkByQr(t, staff);
    const job = await create(staff, { whatsapp_id: linked.id });
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: linked.deviceId, state: 'disconnected' }).expect(200);
    await eventually(
      () => t.http.get(`/api/admin/whatsapp/${linked.id}`).set(staff.auth),
      (r) => r.body.whatsapp?.state === 'disconnected',
    );
    const start = await t.http.post('/api/admin/generator/start').set(staff.auth).send({ id: job.id });
    expect(start.status).toBe(403);
    expect(start.body.msg).toBe(DISCONNECTED_MESSAGE);
    const stop = await t.http.post('/api/admin/generator/stop').set(staff.auth).send({ id: job.id });
    expect(stop.status).toBe(403);
    expect(stop.body.msg).toBe(DISCONNECTED_MESSAGE);
  });

  it('pauses with error_generate when the account drops mid-job, and resumes after it reconnects', async () => {
    const linked = await linkByQr(t, staff);
    const live = await record(t, staff);
    const job = await create(staff, { whatsapp_id: linked.id, end_number: '6281300000004', interval_min: 1, interval_max: 1 });
    await t.http.post('/api/admin/generator/start').set(staff.auth).send({ id: job.id }).expect(200);
    await jobUntil(t.http, staff.auth, 'generator', job.id, (g) => Number(g.checked) >= 1);
    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: linked.deviceId, state: 'disconnected' }).expect(200);
    const paused = await jobUntil(t.http, staff.auth, 'generator', job.id, (g) => g.status === 'idle');
    expect(paused.state).toBe('error');
    expect(Number(paused.checked)).toBeLessThan(5);
    const error = await eventually(() => live.messages.find((m) => m.event === 'error_generate' && m.data.id === job.id), (m) => m !== undefined);
    expect(error!.data).toMatchObject({ status: 'idle', message: DISCONNECTED_MESSAGE, progress: paused.progress });

    await t.http.post('/api/sim/connection').set(SIM).send({ deviceId: linked.deviceId, state: 'connected' }).expect(200);
    // The phone's state reaches the account row through the gateway's event, after the sim call answers.
    await eventually(
      () => t.http.get(`/api/admin/whatsapp/${linked.id}`).set(staff.auth),
      (r) => r.body.whatsapp?.state === 'connected',
    );
    await t.http.post('/api/admin/generator/start').set(staff.auth).send({ id: job.id }).expect(200);
    const done = await jobUntil(t.http, staff.auth, 'generator', job.id, finished);
    expect(Number(done.count_success) + Number(done.count_fail)).toBe(5);
  });

  it('delete removes the job and its results', async () => {
    const job = await create(staff);
    await t.http.post('/api/admin/generator/start').set(staff.auth).send({ id: job.id }).expect(200);
    await jobUntil(t.http, staff.auth, 'generator', job.id, finished);
    const del = await t.http.delete(`/api/admin/generator/${job.id}`).set(staff.auth);
    expect(del.status).toBe(200);
    expect((await t.http.get(`/api/admin/generator/${job.id}`).set(staff.auth)).status).toBe(404);
    expect((await t.http.get(`/api/admin/generator/download-result/${job.id}`).set(staff.auth)).status).toBe(404);
  });
});

describe('generator roles and ownership', () => {
  it('members cannot use any generator call', async () => {
    expect((await t.http.get('/api/admin/generator/list-per-page').set(member.auth)).status).toBe(403);
    expect((await t.http.post('/api/admin/generator/create').set(member.auth).send(body())).status).toBe(403);
  });

  it("staff see and act on their own jobs only; admin and dev on all", async () => {
    const job = await create(staff);
    for (const [method, path, payload] of [
      ['get', `/api/admin/generator/${job.id}`, undefined],
      ['put', `/api/admin/generator/${job.id}`, body()],
      ['delete', `/api/admin/generator/${job.id}`, undefined],
      ['post', '/api/admin/generator/start', { id: job.id }],
      ['post', '/api/admin/generator/stop', { id: job.id }],
      ['get', `/api/admin/generator/download-result/${job.id}`, undefined],
    ] as const) {
      const res = await t.http[method](path).set(otherStaff.auth).send(payload);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    const spoof = await t.http.get(`/api/admin/generator/list-per-page?user_id=${staff.id}`).set(otherStaff.auth);
    expect(spoof.status).toBe(403);
    const own = await t.http.get('/api/admin/generator/list-per-page').set(otherStaff.auth);
    expect(own.status).toBe(200);
    expect(own.body.data.every((g: { user_id: number }) => g.user_id === otherStaff.id)).toBe(true);

    const all = await t.http.get('/api/admin/generator/list-per-page').set(dev.auth);
    expect(all.body.data.some((g: { id: number }) => g.id === job.id)).toBe(true);
    const adminOwn = await t.http.get(`/api/admin/generator/list-per-page?user_id=${admin.id}`).set(admin.auth);
    expect(adminOwn.body.data).toEqual([]);
    const adminOfStaff = await t.http.get(`/api/admin/generator/list-per-page?user_id=${staff.id}`).set(admin.auth);
    expect(adminOfStaff.body.data.some((g: { id: number }) => g.id === job.id)).toBe(true);
    expect((await t.http.get(`/api/admin/generator/${job.id}`).set(admin.auth)).status).toBe(200);
  });

  it('lists 10 a page, newest first, with search and status filter', async () => {
    const fresh = await t.user('staff');
    const acc = await linkByQr(t, fresh);
    for (let i = 0; i < 11; i++) await create(fresh, { whatsapp_id: acc.id, start_number: `62815000${i}0000`, end_number: `62815000${i}0009` });
    const first = await t.http.get('/api/admin/generator/list-per-page?page=1').set(fresh.auth);
    expect(first.body.meta).toMatchObject({ page: 1, pageSize: 10, total: 11, totalPages: 2 });
    expect(first.body.data[0].start_number).toBe('62815000100000');
    const second = await t.http.get('/api/admin/generator/list-per-page?page=2').set(fresh.auth);
    expect(second.body.data).toHaveLength(1);
    const found = await t.http.get('/api/admin/generator/list-per-page?search=628150003').set(fresh.auth);
    expect(found.body.data.map((g: { start_number: string }) => g.start_number)).toEqual(['6281500030000']);
    const finishedOnly = await t.http.get('/api/admin/generator/list-per-page?status=finished').set(fresh.auth);
    expect(finishedOnly.body.data).toEqual([]);
  });
});
