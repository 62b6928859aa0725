import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { one } from '../../server/src/db/raw';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { closeDb, openDb } from '../../server/src/db/client';
import { generatorResults, generators, phoneNumbers } from '../../server/src/db/schema';
import { SimulatorGateway } from '../../server/src/gateway/simulator/simulator';
import { startTestApp } from '../helpers';
import { eventually } from './whatsapp-fixtures';
import { boot, finished, jobUntil, linkAccount, rangeOf, registeredIn, staffLogin } from './generator-fixtures';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('generator stop, start and restart', () => {
  it('stop pauses after the number in flight and start resumes at the next one, never repeating a number', async () => {
    const t = await startTestApp();
    try {
      const staff = await t.user('staff');
      const account = await linkAccount(t.http, staff.auth, `id-${Date.now()}-2`);
      const checks = vi.spyOn(SimulatorGateway.prototype, 'checkNumber');
      const numbers = rangeOf('6281800000000', 6);
      const created = await t.http
        .post('/api/admin/generator/create')
        .set(staff.auth)
        .send({ start_number: numbers[0], end_number: numbers[5], whatsapp_id: account.id, interval_min: 1, interval_max: 1 })
        .expect(201);
      const id = created.body.generator.id as number;
      await t.http.post('/api/admin/generator/start').set(staff.auth).send({ id }).expect(200);
      await jobUntil(t.http, staff.auth, 'generator', id, (g) => Number(g.checked) >= 2);
      const stop = await t.http.post('/api/admin/generator/stop').set(staff.auth).send({ id });
      expect(stop.status).toBe(200);
      expect(stop.body.generator.status).toBe('idle');
      const paused = await jobUntil(t.http, staff.auth, 'generator', id, (g) => g.status === 'idle');
      await new Promise((r) => setTimeout(r, 1500));
      const still = await jobUntil(t.http, staff.auth, 'generator', id, () => true);
      expect(still.checked).toBe(paused.checked);
      expect(still.checked).toBeLessThan(6);

      await t.http.put(`/api/admin/generator/${id}`).set(staff.auth).send({ ...created.body.generator, interval_min: 0, interval_max: 0 }).expect(200);
      await t.http.post('/api/admin/generator/start').set(staff.auth).send({ id }).expect(200);
      const done = await jobUntil(t.http, staff.auth, 'generator', id, finished);
      expect(done).toMatchObject({ checked: 6, progress: 100 });
      expect(Number(done.count_success) + Number(done.count_fail)).toBe(6);
      expect(checks.mock.calls.map((c) => c[1])).toEqual(numbers);
    } finally {
      await t.close();
    }
  });

  it('resumes a running job after a crash mid-check without losing or double-counting a number', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-jobs-'));
    dirs.push(dataDir);
    const first = await boot(dataDir, { latencyMs: 4 });
    const staff = await staffLogin(first.ctx, 'restart-staff@test.local');
    const account = await linkAccount(first.http, staff.auth, `id-${Date.now()}-3`);
    const numbers = rangeOf('6281600000000', 300);
    const send = (over: Record<string, unknown>) =>
      first.http.post('/api/admin/generator/create').set(staff.auth).send({ whatsapp_id: account.id, interval_min: 0, interval_max: 0, ...over }).expect(201);
    const id = (await send({ start_number: numbers[0], end_number: numbers[299], b_insert: 1 })).body.generator.id as number;
    const pausedId = (await send({ start_number: '6281700000000', end_number: '6281700000009', interval_min: 3, interval_max: 3 })).body.generator.id as number;
    await first.http.post('/api/admin/generator/start').set(staff.auth).send({ id: pausedId }).expect(200);
    await jobUntil(first.http, staff.auth, 'generator', pausedId, (g) => g.checked === 1);
    await first.http.post('/api/admin/generator/stop').set(staff.auth).send({ id: pausedId }).expect(200);
    await first.http.post('/api/admin/generator/start').set(staff.auth).send({ id }).expect(200);
    const row = async () => (await one(first.ctx.db.select().from(generators).where(eq(generators.id, id))))!;
    await eventually(row, (r) => r.checked >= 40, 10_000);
    await first.kill();

    const peek = await openDb(path.join(dataDir, 'blast.db'));
    const atCrash = (await one(peek.select().from(generators).where(eq(generators.id, id))))!;
    await closeDb(peek);
    expect(atCrash.status).toBe('sending');
    expect(atCrash.checked).toBeLessThan(300);
    expect(atCrash.countSuccess + atCrash.countFail).toBe(atCrash.checked);

    const checks = vi.spyOn(SimulatorGateway.prototype, 'checkNumber');
    const second = await boot(dataDir);
    try {
      const done = await jobUntil(second.http, staff.auth, 'generator', id, finished, 15_000);
      const expected = registeredIn(second.ctx.gateway, numbers);
      expect(done).toMatchObject({ checked: 300, progress: 100, count_success: expected.length, count_fail: 300 - expected.length });
      const asked = checks.mock.calls.map((c) => c[1]);
      expect(asked).toEqual(numbers.slice(atCrash.checked));
      const results = (await second.ctx.db.select().from(generatorResults).where(eq(generatorResults.generatorId, id)));
      expect(results.map((r) => r.number)).toEqual(expected.map((e) => e.number));
      const listed = (await second.ctx.db.select().from(phoneNumbers).where(inArray(phoneNumbers.number, numbers)));
      expect(listed).toHaveLength(expected.length);

      const paused = await jobUntil(second.http, staff.auth, 'generator', pausedId, () => true);
      expect(paused).toMatchObject({ status: 'idle', state: 'stopped', checked: 1 });
    } finally {
      await second.kill();
    }
  });
});
