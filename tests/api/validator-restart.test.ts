import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { one } from '../../server/src/db/raw';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { closeDb, openDb } from '../../server/src/db/client';
import { validatorItems, validators } from '../../server/src/db/schema';
import { SimulatorGateway } from '../../server/src/gateway/simulator/simulator';
import { eventually } from './whatsapp-fixtures';
import { boot, finished, jobUntil, linkAccount, rangeOf, registeredIn, staffLogin } from './generator-fixtures';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('validator across a restart', () => {
  it('resumes at the first unchecked row; every row is counted exactly once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-validator-'));
    dirs.push(dataDir);
    const first = await boot(dataDir, { latencyMs: 4 });
    const staff = await staffLogin(first.ctx, 'validator-restart@test.local');
    const account = await linkAccount(first.http, staff.auth, `id-${Date.now()}-4`);
    const numbers = rangeOf('6282600000000', 200);
    const rows = numbers.flatMap((n, i) => (i % 50 === 10 ? [n, 'salah'] : [n]));
    const created = await first.http
      .post('/api/admin/validator/create')
      .set(staff.auth)
      .field('whatsapp_id', String(account.id))
      .field('interval_min', '0')
      .field('interval_max', '0')
      .attach('file', Buffer.from(rows.join('\n')), 'restart.csv')
      .expect(201);
    const id = created.body.validator.id as number;
    const total = rows.length;
    await first.http.post('/api/admin/validator/start').set(staff.auth).send({ id }).expect(200);
    const row = async () => (await one(first.ctx.db.select().from(validators).where(eq(validators.id, id))))!;
    await eventually(row, (r) => r.checked >= 30, 10_000);
    await first.kill();

    const peek = await openDb(path.join(dataDir, 'blast.db'));
    const atCrash = (await one(peek.select().from(validators).where(eq(validators.id, id))))!;
    const markedAtCrash = (await peek.select().from(validatorItems).where(eq(validatorItems.validatorId, id))).filter((i) => i.result !== null).length;
    await closeDb(peek);
    expect(atCrash.status).toBe('sending');
    expect(atCrash.checked).toBeLessThan(total);
    expect(markedAtCrash).toBe(atCrash.checked);

    const checks = vi.spyOn(SimulatorGateway.prototype, 'checkNumber');
    const second = await boot(dataDir);
    try {
      const done = await jobUntil(second.http, staff.auth, 'validator', id, finished, 15_000);
      const registered = registeredIn(second.ctx.gateway, numbers);
      expect(done).toMatchObject({ checked: total, progress: 100, count_success: registered.length, count_fail: total - registered.length });
      const asked = checks.mock.calls.map((c) => c[1]);
      expect(new Set(asked).size).toBe(asked.length);
      const askedBefore = rows.slice(0, atCrash.checked).filter((r) => r !== 'salah');
      expect(asked).toEqual(numbers.filter((n) => !askedBefore.includes(n)));
      const result = await second.http.get(`/api/admin/validator/download-result/${id}`).set(staff.auth);
      expect(result.body.list.map((r: { number: string }) => r.number)).toEqual(registered.map((r) => r.number));
    } finally {
      await second.kill();
    }
  });
});
